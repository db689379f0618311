// A list filtered as the user types, built on @inquirer/core as the library builds its own prompts.
// Not @inquirer/search: it asks for its choices asynchronously, so when text and Enter arrive in
// one chunk (typed fast, or pasted) Enter took the choice highlighted for the text before, while
// the answer line showed the one for the text typed. Here the choices are computed from the text
// in the same render as its keystroke, so Enter acts on the list shown for what was typed. Until
// the arrows move it, the first choice is the one highlighted: `source` puts an exact match first.
import {
  createPrompt,
  isDownKey,
  isEnterKey,
  isTabKey,
  isUpKey,
  makeTheme,
  useKeypress,
  useMemo,
  usePagination,
  usePrefix,
  useState,
} from '@inquirer/core'
import figures from '@inquirer/figures'

export type SearchChoice = { value: string; name?: string }

type Config = { message: string; source: (term: string) => SearchChoice[] }

const PAGE_SIZE = 7

export default createPrompt<string, Config>((config, done) => {
  const theme = makeTheme()
  const [status, setStatus] = useState<'idle' | 'done'>('idle')
  const [term, setTerm] = useState('')
  // Moved with the arrows; it applies to the list of the text it was moved in.
  const [pointer, setPointer] = useState({ term: '', index: 0 })
  const choices = useMemo(() => config.source(term), [term])
  const active = pointer.term === term ? pointer.index : 0
  const chosen = choices[active]
  const prefix = usePrefix({ status, theme })

  useKeypress((key, rl) => {
    // Keys after the Enter that answered (the rest of a paste) are not this prompt's.
    if (status === 'done') return
    if (isEnterKey(key)) {
      if (chosen) {
        setStatus('done')
        done(chosen.value)
      } else {
        // readline emptied its line on Enter: the text stays, to be corrected.
        rl.write(term)
      }
    } else if (isUpKey(key) || isDownKey(key)) {
      // Not readline's history: the line stays the text typed.
      rl.clearLine(0)
      rl.write(term)
      const next = active + (isUpKey(key) ? -1 : 1)
      if (next >= 0 && next < choices.length) setPointer({ term, index: next })
    } else if (isTabKey(key) && chosen) {
      rl.clearLine(0)
      rl.write(chosen.value)
      setTerm(rl.line)
    } else {
      setTerm(rl.line)
    }
  })

  const message = theme.style.message(config.message, status)
  const label = (choice: SearchChoice) => choice.name ?? choice.value
  const page = usePagination({
    items: choices,
    active,
    renderItem: ({ item, isActive }) =>
      isActive ? theme.style.highlight(`${figures.pointer} ${label(item)}`) : `  ${label(item)}`,
    pageSize: PAGE_SIZE,
    loop: false,
  })
  if (status === 'done' && chosen)
    return `${prefix} ${message} ${theme.style.answer(label(chosen))}`
  const header = [prefix, message, theme.style.answer(term)].join(' ').trimEnd()
  const list = choices.length ? page : theme.style.error('No results: type something else')
  return [header, [list, ' ', theme.style.help('↑↓ navigate • ⏎ select • ⇥ complete')].join('\n')]
})
