import { backupFileName, writeBackup } from '@roland/scripts/backup/backup'
import type { Route } from '../context.ts'
import { securityHeaders } from '../http.ts'

/** The admin screen's "Download a backup": the whole store, database and files, as `roland db backup` writes it. */
export const backupRoutes: Route[] = [
  {
    method: 'GET',
    path: /^\/api\/backup$/,
    adminOnly: true,
    async handler({ res, services }) {
      // Streamed as it is read: the headers leave with the first bytes, so a store that cannot be
      // read still gets an error answer; a failure later cuts the download short, which a restore refuses.
      const headers = {
        ...securityHeaders,
        'content-type': 'application/gzip',
        'content-disposition': `attachment; filename="${backupFileName()}"`,
        'cache-control': 'no-store',
      }
      for (const [name, value] of Object.entries(headers)) res.setHeader(name, value)
      try {
        await services.store.use((store) => writeBackup(store, res))
      } catch (error) {
        if (!res.headersSent) res.removeHeader('content-disposition')
        throw error
      }
    },
  },
]
