// The open-now badge's script (OpenNowBadge.astro). The page runs it inline, right after the
// badge, so the badge is filled in before anything below it is laid out: it never moves the page.
import { startOpenNow } from './open-now.ts'

startOpenNow()
