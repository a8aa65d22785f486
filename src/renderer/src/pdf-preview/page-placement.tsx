import { useEffect, useRef, useState, type JSX, type KeyboardEvent, type PointerEvent } from 'react';
import type { PDFDocumentProxy, RenderTask } from 'pdfjs-dist';
import type { VisibleSignaturePlacement } from '../../../core/schemas/visible-signature-placement.js';
import { useI18n } from '../i18n/i18n.js';
import { openPdf } from './open-pdf.js';
import { clampBox, placementOf, SIGNATURE_BOX, type BoxPosition, type PageSize } from './box-geometry.js';

/** CSS pixels the preview is wide: the page is scaled to it. */
const PREVIEW_WIDTH = 420;
/** Arrow keys move the box this many points; with Shift, six times as far. */
const KEY_STEP = 6;

export interface PagePlacementProps {
  file: File;
  /** Whether the signature is visible: the box is shown and can be placed only then. */
  visible: boolean;
  onPlacement(placement: VisibleSignaturePlacement | undefined): void;
}

/**
 * A PDF's page preview with a page chooser and, for a visible signature, the box the user drags (or moves with the
 * arrow keys) where the signature goes. pdf.js draws the page as a reader displays it (CropBox, /Rotate), so the box
 * is measured in those displayed points and handed on from the page's bottom-left corner, which is how the signing
 * engine takes a rectangle and maps it into the page's own coordinates.
 */
export default function PagePlacement({ file, visible, onPlacement }: PagePlacementProps): JSX.Element {
  const { t } = useI18n();
  const document = usePdf(file);
  const [pageNumber, setPageNumber] = useState(1);
  const [box, setBox] = useState<BoxPosition>();
  const canvas = useRef<HTMLCanvasElement>(null);
  const size = useRenderedPage(document.pdf, pageNumber, canvas);
  const scale = size ? PREVIEW_WIDTH / size.width : 1;

  useEffect(() => setPageNumber(1), [document.pdf]);
  useEffect(() => {
    if (size) setBox((current) => clampBox(size, current ?? { left: 18, top: size.height - 18 - SIGNATURE_BOX.height }));
  }, [size]);
  useEffect(() => {
    onPlacement(visible && size && box ? placementOf(pageNumber, size, box) : undefined);
  }, [visible, size, box, pageNumber, onPlacement]);

  if (document.error) return <p className="error">{t('sign.preview.failed', { message: document.error })}</p>;
  if (!document.pdf) return <p className="muted">{t('sign.preview.loading')}</p>;
  const move = (next: BoxPosition): void => {
    if (size) setBox(clampBox(size, next));
  };
  // The canvas is there from the start: the page is drawn into it, and only then is its size known.
  return (
    <div className="stack">
      <PageChooser pages={document.pdf.numPages} page={pageNumber} onPage={setPageNumber} />
      <div className="page-preview" style={{ width: PREVIEW_WIDTH }} data-testid="page-preview">
        <canvas ref={canvas} role="img" aria-label={t('sign.preview.page', { page: pageNumber, pages: document.pdf.numPages })} />
        {visible && box && <SignatureBox box={box} scale={scale} page={pageNumber} onMove={move} />}
      </div>
      {visible && <p className="muted">{t('sign.place.help')}</p>}
    </div>
  );
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

/** The box itself: dragged with a pointer, or moved with the arrow keys once focused. */
function SignatureBox({ box, scale, page, onMove }: { box: BoxPosition; scale: number; page: number; onMove(next: BoxPosition): void }): JSX.Element {
  const { t } = useI18n();
  const grab = useRef<{ x: number; y: number }>(undefined);
  const pointerDown = (event: PointerEvent<HTMLButtonElement>): void => {
    event.currentTarget.setPointerCapture(event.pointerId);
    grab.current = { x: event.clientX / scale - box.left, y: event.clientY / scale - box.top };
  };
  const pointerMove = (event: PointerEvent<HTMLButtonElement>): void => {
    if (grab.current) onMove({ left: event.clientX / scale - grab.current.x, top: event.clientY / scale - grab.current.y });
  };
  const keyDown = (event: KeyboardEvent<HTMLButtonElement>): void => {
    const step = event.shiftKey ? KEY_STEP * 6 : KEY_STEP;
    const delta = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[event.key];
    if (!delta) return;
    event.preventDefault();
    onMove({ left: box.left + delta[0]!, top: box.top + delta[1]! });
  };
  return (
    <button
      type="button"
      className="signature-box"
      style={{ left: box.left * scale, top: box.top * scale, width: SIGNATURE_BOX.width * scale, height: SIGNATURE_BOX.height * scale }}
      // Its name starts with the word it shows, so a person who says what they see reaches it by voice.
      aria-label={`${t('sign.place.label')}: ${t('sign.place.box', { page, x: Math.round(box.left), y: Math.round(box.top) })}`}
      data-testid="signature-box"
      onPointerDown={pointerDown}
      onPointerMove={pointerMove}
      onPointerUp={() => (grab.current = undefined)}
      onKeyDown={keyDown}
    >
      {t('sign.place.label')}
    </button>
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
