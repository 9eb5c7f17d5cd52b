// The image fallback's script (BaseLayout.astro), run inline in <head> so that it listens before
// the first image can fail: an image that fails to load is hidden, uncovering the icon drawn
// beneath it (SPEC §8). Inside a React island the failure is only recorded (window.__failedImages,
// see components/use-image-fallback.ts): the island hides the image itself once hydrated. Static
// HTML passed into an island (its <astro-slot>) is not the island's to draw, so it is hidden here too.
document.addEventListener(
  'error',
  (event) => {
    const image = event.target
    if (!(image instanceof HTMLImageElement) || !image.hasAttribute('data-fallback')) return
    ;(window.__failedImages ??= new Set()).add(image.src)
    if (!image.closest('astro-island') || image.closest('astro-slot')) image.hidden = true
  },
  true,
)
