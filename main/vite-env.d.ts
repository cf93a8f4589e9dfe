// Vite's `?raw` imports: a file's text bundled as a string (the CRD YAML, report templates).
declare module '*?raw' {
  const text: string;
  export default text;
}
