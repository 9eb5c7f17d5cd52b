import { iconMarkup, type IconName } from '../lib/icons.ts'

interface Props {
  name: IconName
  className?: string
  /** Text for an icon that carries meaning; without it the icon is decoration, hidden from screen readers. */
  label?: string
}

/** An inline SVG icon of the site's set; used by Astro pages (rendered to HTML) and islands alike. */
export default function Icon({ name, className = 'size-5', label }: Props) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className}
      focusable="false"
      {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })}
      dangerouslySetInnerHTML={{ __html: iconMarkup(name) }}
    />
  )
}
