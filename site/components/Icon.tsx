import { iconHref, type IconProps } from '../lib/icons.ts'

/**
 * An SVG icon of the site's set, for the islands: its shapes are in the sprite (lib/icons.ts).
 * Static pages use Icon.astro, the same markup without a React render per icon (a hundred
 * thousand of them in a build of 10,000 businesses).
 */
export default function Icon({ name, className = 'size-5', label }: IconProps) {
  return (
    <svg className={`icon ${className}`} {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })}>
      <use href={iconHref(name)} />
    </svg>
  )
}
