import { useEffect, useRef, useState } from 'react'

declare global {
  interface Window {
    /** URLs of images that failed before React took over (set by BaseLayout's inline script). */
    __failedImages?: Set<string>
  }
}

/**
 * Tracks whether an image failed to load, so a React component can show its fallback icon.
 * A failure after hydration arrives through onError; one before it was recorded by the page's
 * inline script, and is applied after hydration so the server's HTML still matches.
 */
export function useImageFallback() {
  const ref = useRef<HTMLImageElement>(null)
  const [failed, setFailed] = useState(false)
  useEffect(() => {
    const src = ref.current?.src
    if (src && window.__failedImages?.has(src)) setFailed(true)
  }, [])
  return { ref, failed, onError: () => setFailed(true) }
}
