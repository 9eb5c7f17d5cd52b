import { OperatorError, type OperatorErrorCode } from '@roland/scripts/operators/accounts'
import { operatorDirectory, type OperatorDirectory } from '@roland/scripts/operators/directory'
import {
  newOperatorSchema,
  operatorPasswordRequestSchema,
  operatorRoleRequestSchema,
  type OperatorView,
} from '../../shared/api.ts'
import type { Route, RouteContext } from '../context.ts'
import { HttpError, readJson, sendJson } from '../http.ts'

// The Operators screen's API, for admins only (the router answers 403 to editors). On the embedded
// store each change runs as the signed-in admin, so the operators table's own policies (is_admin())
// decide too; on Supabase it runs with the secret key, after the router's check.

const statusOf: Record<OperatorErrorCode, number> = {
  invalid: 400,
  duplicate: 409,
  'not-found': 404,
  forbidden: 403,
  'last-admin': 409,
}

/** Runs an operator change as the caller, turning a refusal into its HTTP status. */
async function asCaller<T>(
  { services, actor }: RouteContext,
  fn: (operators: OperatorDirectory) => Promise<T>,
): Promise<T> {
  try {
    return await services.store.use((store) => fn(operatorDirectory(store, actor)))
  } catch (error) {
    if (error instanceof OperatorError) throw new HttpError(statusOf[error.code], error.message)
    throw error
  }
}

const byId = /^\/api\/operators\/(?<id>[^/]+)$/

/** Listing, adding and removing operators, setting their password and role. */
export const operatorRoutes: Route[] = [
  {
    method: 'GET',
    path: /^\/api\/operators$/,
    adminOnly: true,
    async handler(context) {
      const operators = await asCaller(context, (operators) => operators.list())
      sendJson(context.res, 200, { operators } satisfies { operators: OperatorView[] })
    },
  },
  {
    method: 'POST',
    path: /^\/api\/operators$/,
    adminOnly: true,
    async handler(context) {
      const input = await readJson(context.req, newOperatorSchema)
      const operator = await asCaller(context, (operators) => operators.add(input))
      sendJson(context.res, 201, { operator })
    },
  },
  {
    method: 'DELETE',
    path: byId,
    adminOnly: true,
    async handler(context) {
      const operator = await asCaller(context, (operators) => operators.remove({ id: operatorId(context) }))
      sendJson(context.res, 200, { operator })
    },
  },
  {
    method: 'POST',
    path: /^\/api\/operators\/(?<id>[^/]+)\/password$/,
    adminOnly: true,
    async handler(context) {
      const { password } = await readJson(context.req, operatorPasswordRequestSchema)
      const operator = await asCaller(context, (operators) =>
        operators.resetPassword({ id: operatorId(context) }, password),
      )
      sendJson(context.res, 200, { operator })
    },
  },
  {
    method: 'PUT',
    path: /^\/api\/operators\/(?<id>[^/]+)\/role$/,
    adminOnly: true,
    async handler(context) {
      const { role } = await readJson(context.req, operatorRoleRequestSchema)
      const operator = await asCaller(context, (operators) => operators.setRole({ id: operatorId(context) }, role))
      sendJson(context.res, 200, { operator })
    },
  },
]

function operatorId({ params }: RouteContext): string {
  const id = params.id ?? ''
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) {
    throw new HttpError(404, `No operator ${id}: take the id from GET /api/operators.`)
  }
  return id
}
