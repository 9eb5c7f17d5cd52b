import type { Route } from '../context.ts'
import { HttpError, securityHeaders, sendJson } from '../http.ts'

/** "Download a backup" (admins), the scheduled backups' state, and "Back up now". */
export const backupRoutes: Route[] = [
  {
    // The scheduled, checked backups: the last one checked, when the next is due, what needs attention.
    method: 'GET',
    path: /^\/api\/backups$/,
    async handler({ res, services }) {
      sendJson(res, 200, await services.backups.view())
    },
  },
  {
    // "Back up now": writes and checks a backup into ROLAND_BACKUP_DIR (202; GET /api/backups follows it).
    method: 'POST',
    path: /^\/api\/backups$/,
    async handler({ res, services }) {
      if (!services.backups.dir) {
        throw new HttpError(
          409,
          'No backup folder is set: set ROLAND_BACKUP_DIR in .env (see .env.example) and restart the console, ' +
            'or download a backup from Operators.',
        )
      }
      void services.backups.run()
      sendJson(res, 202, await services.backups.view())
    },
  },
  {
    method: 'GET',
    path: /^\/api\/backup$/,
    adminOnly: true,
    async handler({ res, services }) {
      // Loaded with the first download (crawl-jobs.ts says why).
      const { backupFileName, writeBackup } = await import('@roland/scripts/backup/backup')
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
