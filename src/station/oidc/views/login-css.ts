/** The login pages' only stylesheet, served from the station (the pages' CSP allows styles from 'self' only). */
export const LOGIN_CSS = `
body { font: 16px/1.45 system-ui, sans-serif; margin: 0; background: #f4f5f7; color: #1d2330; }
main { max-width: 34rem; margin: 2rem auto; padding: 1.5rem; background: #fff; border-radius: 8px; box-shadow: 0 1px 4px rgb(0 0 0 / 12%); }
h1 { font-size: 1.4rem; margin-top: 0; }
h2 { font-size: 1.05rem; margin: 0 0 .5rem; }
.method { border: 1px solid #d5d9e0; border-radius: 6px; padding: 1rem; margin: 1rem 0; display: grid; gap: .5rem; }
label { display: grid; gap: .2rem; font-size: .9rem; }
input { font: inherit; padding: .35rem .5rem; }
button { font: inherit; padding: .45rem 1rem; justify-self: start; cursor: pointer; }
.error { color: #a4161a; background: #fdecea; padding: .6rem .8rem; border-radius: 4px; }
.sandbox { color: #7a4b00; background: #fff4d6; padding: .4rem .8rem; border-radius: 4px; font-size: .9rem; }
.challenge { font-size: 2rem; letter-spacing: .2rem; display: block; margin: .5rem 0; }
.qr { white-space: pre-wrap; word-break: break-all; background: #f0f0f0; padding: .5rem; }
`;
