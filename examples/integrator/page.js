// The example shop's page: it hands the files and its server's grant to the user's station, has them signed there,
// and brings the signed result back to its server. No secret of the shop is ever in this page.
const { station, clientId } = document.querySelector('script[data-station]').dataset;
const result = document.getElementById('result');
// The station's own client by default; `?client=eidEasyBrowserClient` signs with the published client 2.140.0
// instead, for a page that loads that one: both take the same settings.
const clientGlobal = new URLSearchParams(location.search).get('client') === 'eidEasyBrowserClient' ? 'eidEasyBrowserClient' : 'serviceBrowserClient';
const show = (state, value) => {
  result.dataset.state = state;
  result.textContent = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
};

async function post(url, body) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.message ?? answer.error ?? `${url} answered ${response.status}`);
  return answer;
}

async function read(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return { fileName: file.name, mimeType: file.type || 'application/octet-stream', fileContent: btoa(binary) };
}

/** The browser client's module as a promise: its success data, or its error. */
function run(start) {
  return new Promise((resolve, reject) => start({ iframeHolder: document.getElementById('helper'), success: resolve, fail: reject }));
}

async function sign() {
  const files = await Promise.all([...document.getElementById('files').files].map(read));
  const containerType = files.length === 1 && files[0].mimeType === 'application/pdf' ? 'pdf' : 'asice';
  const { id, grant } = await post('/documents', { container_type: containerType, files });
  const prepared = await post(`${station}/integrator/${clientId}/grant/prepare`, { grant, container_type: containerType, files });
  const client = window[clientGlobal].createClient({ clientId, docId: prepared.doc_id, countryCode: 'EE', apiEndpoints: { base: () => station } });
  await run((options) => client.signature.idCardSignature.start(options));
  const signed = await post(`${station}/integrator/${clientId}/grant/download`, { doc_id: prepared.doc_id, download_token: prepared.download_token });
  return post('/documents/signed', { id, ...signed });
}

async function login() {
  const client = window.serviceBrowserClient.createClient({
    clientId,
    countryCode: 'EE',
    apiEndpoints: { base: () => station, identityStart: () => '/login/start', identityFinish: () => '/login/finish' },
  });
  return (await run((options) => client.identification.webEid.start(options))).data;
}

for (const [id, action] of [['sign', sign], ['login', login]]) {
  document.getElementById(id).addEventListener('click', () => {
    show('busy', '…');
    action().then(
      (answer) => show('done', answer),
      (error) => show('failed', error.userMessage ?? error.message),
    );
  });
}
