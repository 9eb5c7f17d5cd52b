import type { ShownImage } from '../lib/business-images.ts'
import { pictureOf, type PicturePlace } from '../lib/picture.ts'
import { useImageFallback } from './use-image-fallback.ts'

interface Props {
  image: ShownImage
  place: PicturePlace
}

/**
 * A business image in a React component: the <picture> of Picture.astro, from the same
 * site/lib/picture.ts. Renders nothing once the image failed, uncovering the icon beneath it.
 */
export default function Picture({ image, place }: Props) {
  const { ref, failed, onError } = useImageFallback()
  if (failed) return null
  const picture = pictureOf(image, place)
  const { fetchpriority, ...loading } = picture.loading
  const img = (
    <img
      ref={ref}
      onError={onError}
      src={picture.img.src}
      srcSet={picture.img.srcset}
      sizes={picture.img.sizes}
      alt={image.alt}
      width={picture.img.width}
      height={picture.img.height}
      {...loading}
      fetchPriority={fetchpriority}
      style={picture.style}
      data-fallback=""
      className="absolute inset-0 size-full object-cover"
    />
  )
  if (picture.sources.length === 0) return img
  return (
    <picture>
      {picture.sources.map((source) => (
        <source key={source.type} type={source.type} srcSet={source.srcset} sizes={source.sizes} />
      ))}
      {img}
    </picture>
  )
}
