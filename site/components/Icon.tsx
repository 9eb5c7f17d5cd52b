import { iconMarkup, type IconProps } from '../lib/icons.ts'

/**
 * An inline SVG icon of the site's set, for the islands. Static pages use Icon.astro, the same
 * markup without a React render per icon (a hundred thousand of them in a build of 10,000 businesses).
 */
export default function Icon({ name, className = 'size-5', label }: IconProps) {
  return (
    <svg
      viewBox="0 0 24 24"
      className={`icon ${className}`}
      {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })}
      dangerouslySetInnerHTML={{ __html: iconMarkup(name) }}
    />
  )
}
