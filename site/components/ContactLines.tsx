import type { Business } from '@roland/scripts/catalog/types'
import Icon from './Icon.tsx'

interface Props {
  business: Pick<Business, 'address' | 'phone' | 'hours'>
  /** The phone's tel: link (telUrl, by the town's country), made by the caller; null: the phone as text. */
  tel: string | null
  showHours?: boolean
}

/** The address, phone (a tel: link) and hours lines of a business card. */
export default function ContactLines({ business, tel, showHours = true }: Props) {
  return (
    <ul className="flex flex-col gap-1.5 text-sm text-stone-700">
      {business.address && (
        <li className="flex gap-2">
          <Icon name="map-pin" className="mt-0.5 size-4 shrink-0 text-forest-600" />
          <span>{business.address}</span>
        </li>
      )}
      {business.phone && (
        <li className="flex gap-2">
          <Icon name="phone" className="mt-0.5 size-4 shrink-0 text-forest-600" />
          {tel ? (
            <a className="hover:underline" href={tel}>
              {business.phone}
            </a>
          ) : (
            <span>{business.phone}</span>
          )}
        </li>
      )}
      {showHours && business.hours && (
        <li className="flex gap-2">
          <Icon name="clock" className="mt-0.5 size-4 shrink-0 text-forest-600" />
          <span>{business.hours}</span>
        </li>
      )}
    </ul>
  )
}
