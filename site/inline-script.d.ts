// `import code from './x.ts?inline-script'` (integrations/inline-script.ts).
declare module '*?inline-script' {
  /** The module and what it imports, bundled and minified into one classic script. */
  const code: string
  export default code
}
