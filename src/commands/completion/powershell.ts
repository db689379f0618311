// The PowerShell script, cobra's way: a native argument completer that hands the words typed so
// far to `chamberctl __complete words` and turns its lines into completion results. The tree is
// walked by chamberctl (words.ts) rather than generated into the script: PowerShell is not on the
// machines that test this, and what runs only in PowerShell is kept to the few lines below.
import type { CommandSpec } from './model.js'

// Each word goes to chamberctl behind this mark (`:chambers :list :--type :`), so that neither
// commander nor a shim between the shell and chamberctl (npm's .ps1 and .cmd) takes one for an
// option, and the empty word after a blank is still an argument (Windows PowerShell 5.1 drops
// empty ones).
export const WORD_MARK = ':'

export function powershellScript(program: CommandSpec): string {
  const name = program.name
  return `# PowerShell completion for ${name}.
# Generated from ${name}'s command tree by \`${name} completion powershell\`: do not edit.
# Install: add this line to $PROFILE (\`notepad $PROFILE\`):
#   ${name} completion powershell | Out-String | Invoke-Expression

# The words before the cursor (without ${name} itself) and the word at it go to
# \`${name} __complete words\`, each behind a '${WORD_MARK}'. It answers one candidate a line,
# value<TAB>description, and last \`:files\` when a file name is wanted (PowerShell's own path
# completion then runs) or \`:values\`.
Register-ArgumentCompleter -Native -CommandName ${name} -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $words = @($commandAst.CommandElements |
        Select-Object -Skip 1 |
        Where-Object { $_.Extent.EndOffset -lt $cursorPosition } |
        ForEach-Object {
            if ($_ -is [System.Management.Automation.Language.StringConstantExpressionAst]) {
                '${WORD_MARK}' + $_.Value
            } else {
                '${WORD_MARK}' + $_.Extent.Text
            }
        })
    $words += '${WORD_MARK}' + $wordToComplete
    $lines = @(& ${name} __complete words @words 2>$null)
    if ($lines.Count -gt 0 -and $lines[-1] -eq ':files') { return }

    $results = @($lines | Select-Object -SkipLast 1 | Where-Object { $_ -ne '' } | ForEach-Object {
        $value, $description = $_ -split "\`t", 2
        # A value PowerShell would read as more than one word, or as code, goes in quotes.
        $text = if ($value -match '^[\\w.:/=+%-]+$') {
            $value
        } else {
            "'" + ($value -replace "'", "''") + "'"
        }
        $kind = if ($value.StartsWith('-')) { 'ParameterName' } else { 'ParameterValue' }
        $tip = if ($description) { $description } else { $value }
        [System.Management.Automation.CompletionResult]::new($text, $value, $kind, $tip)
    })
    # Nothing to offer: an empty string keeps PowerShell from offering file names instead.
    if ($results.Count -eq 0) { return '' }
    $results
}
`
}
