import { useEffect, useId, useRef, useState, type JSX, type KeyboardEvent, type PointerEvent } from 'react';
import type { PDFDocumentProxy, RenderTask } from 'pdfjs-dist';
import type { VisibleSignaturePlacement } from '../../../core/schemas/visible-signature-placement.js';
import { useI18n } from '../i18n/i18n.js';
import { stationApi } from '../station-api.js';
import { readAsBase64 } from '../signing/read-as-base64.js';
import { openPdf } from './open-pdf.js';
import { boxOf, clampBox, overlaps, placementOf, SIGNATURE_BOX, type BoxPosition, type PageArea, type PageSize } from './box-geometry.js';

/** CSS pixels the preview is wide: the page is scaled to it. */
const PREVIEW_WIDTH = 420;
/** Arrow keys move the box this many points; with Shift they resize it by as much. */
const KEY_STEP = 6;
/** Where the box goes when the station cannot propose a place: the bottom-left corner, a margin in. */
const CORNER_MARGIN = 18;

/** What the stamp will say, shown inside the box as the signature will show it. */
export interface StampPreview {
  signer?: string | undefined;
  reason?: string | undefined;
}

export interface PagePlacementProps {
  file: File;
  /** Whether the signature is visible: the box is shown and can be placed only then. */
  visible: boolean;
  stamp: StampPreview;
  onPlacement(placement: VisibleSignaturePlacement | undefined): void;
}

/**
 * A PDF's page preview with a page chooser and, for a visible signature, the box the user drags (or moves with the
 * arrow keys) where the signature goes, and resizes by its corner or with Shift and the arrow keys. pdf.js draws the
 * page as a reader displays it (CropBox, /Rotate), so the box is measured in those displayed points and handed on
 * from the page's bottom-left corner, which is how the signing engine takes a rectangle and maps it into the page's
 * own coordinates. The station proposes the first place (the free space signing itself would pick) and names what
 * the page already shows, so the box starts clear of the content and a warning says when it is moved over it.
 */
export default function PagePlacement({ file, visible, stamp, onPlacement }: PagePlacementProps): JSX.Element {
  const { t } = useI18n();
  const document = usePdf(file);
  const [pageNumber, setPageNumber] = useState(1);
  const [box, setBox] = useState<BoxPosition>();
  const canvas = useRef<HTMLCanvasElement>(null);
  const size = useRenderedPage(document.pdf, pageNumber, canvas);
  const content = useProposedBox(file, pageNumber, size, setBox);
  const scale = size ? PREVIEW_WIDTH / size.width : 1;

  useEffect(() => setPageNumber(1), [document.pdf]);
  useEffect(() => {
    onPlacement(visible && size && box ? placementOf(pageNumber, size, box) : undefined);
  }, [visible, size, box, pageNumber, onPlacement]);

  if (document.error) return <p className="error">{t('sign.preview.failed', { message: document.error })}</p>;
  if (!document.pdf) return <p className="muted">{t('sign.preview.loading')}</p>;
  const move = (next: BoxPosition): void => {
    if (size) setBox(clampBox(size, next));
  };
  const covering = visible && size && box && content ? overlaps(size, box, content) : false;
  // The canvas is there from the start: the page is drawn into it, and only then is its size known.
  return (
    <div className="stack">
      <PageChooser pages={document.pdf.numPages} page={pageNumber} onPage={setPageNumber} />
      <div className="page-preview" style={{ width: PREVIEW_WIDTH }} data-testid="page-preview">
        <canvas ref={canvas} role="img" aria-label={t('sign.preview.page', { page: pageNumber, pages: document.pdf.numPages })} />
        {visible && box && <SignatureBox box={box} scale={scale} page={pageNumber} stamp={stamp} onMove={move} />}
      </div>
      {visible && <p className="muted">{t('sign.place.help')}</p>}
      <p role="status" className={covering ? 'warning' : undefined} data-testid="placement-overlap">
        {covering ? t('sign.place.overlap') : ''}
      </p>
    </div>
  );
}

/**
 * Asks the station where a box of the first size goes on this page (each page and document starts from its own
 * free space, never the last one's box), and answers the areas the page already shows, for the overlap warning.
 */
function useProposedBox(file: File, pageNumber: number, size: PageSize | undefined, setBox: (box: BoxPosition | undefined) => void): PageArea[] | undefined {
  const [content, setContent] = useState<PageArea[]>();
  useEffect(() => {
    if (!size) return undefined;
    let cancelled = false;
    setBox(undefined);
    setContent(undefined);
    const corner = { x: CORNER_MARGIN, y: CORNER_MARGIN, ...SIGNATURE_BOX };
    void readAsBase64(file)
      .then((fileContent) => stationApi.placement({ fileName: 'document.pdf', mimeType: 'application/pdf', fileContent, page: pageNumber, ...SIGNATURE_BOX }))
      .then(
        (answer) => {
          if (cancelled) return;
          setBox(boxOf(size, answer.proposed));
          setContent(answer.content);
        },
        // The preview still places the box when the station cannot read the page; signing then says what is wrong.
        () => !cancelled && setBox(boxOf(size, corner)),
      );
    return () => {
      cancelled = true;
    };
  }, [file, pageNumber, size, setBox]);
  return content;
}

function PageChooser({ pages, page, onPage }: { pages: number; page: number; onPage(page: number): void }): JSX.Element | null {
  const { t } = useI18n();
  if (pages < 2) return null;
  return (
    <label className="field">
      {t('sign.preview.pageChoice')}
      <select name="page" value={page} onChange={(event) => onPage(Number(event.currentTarget.value))}>
        {Array.from({ length: pages }, (_, index) => (
          <option key={index} value={index + 1}>
            {t('sign.preview.page', { page: index + 1, pages })}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The box itself, showing the stamp's text: dragged with a pointer (by its corner to resize), or moved and resized with the arrow keys once focused. */
function SignatureBox(props: { box: BoxPosition; scale: number; page: number; stamp: StampPreview; onMove(next: BoxPosition): void }): JSX.Element {
  const { box, scale, page, stamp, onMove } = props;
  const { t, date } = useI18n();
  const grab = useRef<{ x: number; y: number; resize: boolean }>(undefined);
  const pointerDown = (event: PointerEvent<HTMLButtonElement>): void => {
    event.currentTarget.setPointerCapture(event.pointerId);
    const resize = (event.target as HTMLElement).dataset['handle'] === 'resize';
    grab.current = resize
      ? { x: event.clientX / scale - box.width, y: event.clientY / scale - box.height, resize }
      : { x: event.clientX / scale - box.left, y: event.clientY / scale - box.top, resize };
  };
  const pointerMove = (event: PointerEvent<HTMLButtonElement>): void => {
    const held = grab.current;
    if (!held) return;
    const [x, y] = [event.clientX / scale - held.x, event.clientY / scale - held.y];
    onMove(held.resize ? { ...box, width: x, height: y } : { ...box, left: x, top: y });
  };
  const keyDown = (event: KeyboardEvent<HTMLButtonElement>): void => {
    const delta = { ArrowLeft: [-KEY_STEP, 0], ArrowRight: [KEY_STEP, 0], ArrowUp: [0, -KEY_STEP], ArrowDown: [0, KEY_STEP] }[event.key];
    if (!delta) return;
    event.preventDefault();
    const [dx, dy] = [delta[0]!, delta[1]!];
    onMove(event.shiftKey ? { ...box, width: box.width + dx, height: box.height + dy } : { ...box, left: box.left + dx, top: box.top + dy });
  };
  const described = useId();
  const size = t('sign.place.boxSize', { width: box.width, height: box.height });
  const place = { left: box.left * scale, top: box.top * scale, width: box.width * scale, height: box.height * scale };
  return (
    <>
      <button
        type="button"
        className="signature-box"
        style={place}
        // Its name starts with the word it shows, so a person who says what they see reaches it by voice.
        aria-label={`${t('sign.place.label')}: ${t('sign.place.box', { page, x: Math.round(box.left), y: Math.round(box.top) })} ${size}`}
        aria-describedby={described}
        data-testid="signature-box"
        onPointerDown={pointerDown}
        onPointerMove={pointerMove}
        onPointerUp={() => (grab.current = undefined)}
        onKeyDown={keyDown}
      >
        {t('sign.place.label')}
        <span className="resize-handle" data-handle="resize" data-testid="resize-handle" aria-hidden="true" />
      </button>
      {/* Drawn over the box but outside it: the button's name stays the word it shows; this is read as its description. */}
      <span id={described} className="stamp-preview" style={place} aria-hidden="true" data-testid="stamp-preview">
        {stamp.signer && <span translate="no">{stamp.signer}</span>}
        <span translate="no">{date(new Date().toISOString())}</span>
        {stamp.reason && <span translate="no">{stamp.reason}</span>}
      </span>
    </>
  );
}

function usePdf(file: File): { pdf?: PDFDocumentProxy; error?: string } {
  const [state, setState] = useState<{ pdf?: PDFDocumentProxy; error?: string }>({});
  useEffect(() => {
    let open: PDFDocumentProxy | undefined;
    let cancelled = false;
    setState({});
    openPdf(file).then(
      (pdf) => {
        open = pdf;
        if (cancelled) void pdf.destroy();
        else setState({ pdf });
      },
      (reason: unknown) => !cancelled && setState({ error: reason instanceof Error ? reason.message : String(reason) }),
    );
    return () => {
      cancelled = true;
      void open?.destroy();
    };
  }, [file]);
  return state;
}

/** Draws the page on the canvas at the preview's width (sharp on high-density screens); answers its displayed size in points. */
function useRenderedPage(pdf: PDFDocumentProxy | undefined, pageNumber: number, canvas: React.RefObject<HTMLCanvasElement | null>): PageSize | undefined {
  const [size, setSize] = useState<PageSize>();
  useEffect(() => {
    if (!pdf || pageNumber > pdf.numPages) return undefined;
    let task: RenderTask | undefined;
    let cancelled = false;
    void pdf.getPage(pageNumber).then((page) => {
      const element = canvas.current;
      if (cancelled || !element) return;
      const points = page.getViewport({ scale: 1 });
      const density = window.devicePixelRatio || 1;
      const viewport = page.getViewport({ scale: (PREVIEW_WIDTH / points.width) * density });
      element.width = Math.round(viewport.width);
      element.height = Math.round(viewport.height);
      element.style.width = `${PREVIEW_WIDTH}px`;
      element.style.height = `${viewport.height / density}px`;
      task = page.render({ canvasContext: element.getContext('2d')!, viewport });
      task.promise.then(
        () => !cancelled && setSize({ width: points.width, height: points.height }),
        () => undefined,
      );
    });
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [pdf, pageNumber, canvas]);
  return size;
}
