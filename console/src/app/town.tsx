import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react'
import type { TownRow } from '@roland/scripts/content/schema'
import { api, errorMessage } from './api.ts'

// The town settings (issue 39), loaded once after sign-in: the console shows and reads times in
// the town's zone and names the town, and the Town screen hands back what it saved.

interface TownContextValue {
  town: TownRow
  /** Whether the signed-in operator may change the settings (admins). */
  canEdit: boolean
  /** Puts the saved settings in place of the loaded ones. */
  setTown: (town: TownRow) => void
}

const TownContext = createContext<TownContextValue | null>(null)

/** Loads the town settings, then shows its children with them. */
export function TownProvider({ canEdit, children }: { canEdit: boolean; children: ReactNode }) {
  const [town, setTownState] = useState<TownRow | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const setTown = useCallback((next: TownRow) => setTownState(next), [])

  useEffect(() => {
    api<{ town: TownRow }>('/api/town').then(
      (answer) => setTownState(answer.town),
      (error: unknown) => setFailure(errorMessage(error)),
    )
  }, [])

  if (failure) return <p className="p-8 text-sm text-red-700">Could not load the town settings: {failure}</p>
  if (!town) return <p className="p-8 text-sm text-slate-500">Loading...</p>
  return <TownContext.Provider value={{ town, canEdit, setTown }}>{children}</TownContext.Provider>
}

/** The town settings and how to replace them after a save. */
export function useTown(): TownContextValue {
  const value = useContext(TownContext)
  if (!value) throw new Error('useTown() is used outside <TownProvider>')
  return value
}
