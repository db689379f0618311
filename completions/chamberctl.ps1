# PowerShell completion for chamberctl.
# Generated from chamberctl's command tree by `chamberctl completion powershell`: do not edit.
# Install: add this line to $PROFILE (`notepad $PROFILE`):
#   chamberctl completion powershell | Out-String | Invoke-Expression

# The words before the cursor (without chamberctl itself) and the word at it go to
# `chamberctl __complete words`, each behind a ':'. It answers one candidate a line,
# value<TAB>description, and last `:files` when a file name is wanted (PowerShell's own path
# completion then runs) or `:values`.
Register-ArgumentCompleter -Native -CommandName chamberctl -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $words = @($commandAst.CommandElements |
        Select-Object -Skip 1 |
        Where-Object { $_.Extent.EndOffset -lt $cursorPosition } |
        ForEach-Object {
            if ($_ -is [System.Management.Automation.Language.StringConstantExpressionAst]) {
                ':' + $_.Value
            } else {
                ':' + $_.Extent.Text
            }
        })
    $words += ':' + $wordToComplete
    $lines = @(& chamberctl __complete words @words 2>$null)
    if ($lines.Count -gt 0 -and $lines[-1] -eq ':files') { return }

    $results = @($lines | Select-Object -SkipLast 1 | Where-Object { $_ -ne '' } | ForEach-Object {
        $value, $description = $_ -split "`t", 2
        # A value PowerShell would read as more than one word, or as code, goes in quotes.
        $text = if ($value -match '^[\w.:/=+%-]+$') {
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
