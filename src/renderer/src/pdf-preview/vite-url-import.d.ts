// Vite's `?url` imports: the build emits the file as an asset and the import is its address.
declare module '*?url' {
  const url: string;
  export default url;
}
