// Opening hours as Roland.txt and the editors write them. What lives where (hours/):
// - vocabulary.ts: the row types (HoursRow), MAX_HOURS_LENGTH, the days' names and the patterns of
//   days, times and the 'Hours:' label (stripHoursLabel);
// - line.ts: whether a line is hours and what they are (readHoursLine, looksLikeHours, hoursScore,
//   mentionsTimes, isScheduleNote, CLAUSE_BREAK), labels kept when they say something;
// - rows.ts: an hours text read into business_hours rows (parseHours), never a guess.
// The import's hours stage (parse/hours.ts) and the editors (content/edit.ts) use them from here.

export {
  MAX_HOURS_LENGTH,
  stripHoursLabel,
  type ClosedHoursRow,
  type DayOfWeek,
  type HoursRow,
  type OpenHoursRow,
} from './hours/vocabulary.ts'
export {
  CLAUSE_BREAK,
  hoursScore,
  isScheduleNote,
  looksLikeHours,
  mentionsTimes,
  readHoursLine,
  type HoursReading,
} from './hours/line.ts'
export { parseHours } from './hours/rows.ts'
