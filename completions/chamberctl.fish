# fish completion for chamberctl.
# Generated from chamberctl's command tree by `chamberctl completion fish`: do not edit.
# Install: copy it to ~/.config/fish/completions/chamberctl.fish

# The subcommand that word $argv[2] names under command path $argv[1]; fails when it names none.
function __chamberctl_command
    switch "$argv[1]|$argv[2]"
        case '|login'
            echo login
        case '|logout'
            echo logout
        case '|auth'
            echo auth
        case '|chambers'
            echo chambers
        case '|members'
            echo members
        case '|events'
            echo events
        case '|seed'
            echo seed
        case '|export'
            echo export
        case '|diff'
            echo diff
        case '|report'
            echo report
        case '|api'
            echo api
        case '|sandbox'
            echo sandbox
        case '|fields'
            echo fields
        case '|version'
            echo version
        case '|completion'
            echo completion
        case '|help'
            echo help
        case 'auth|status'
            echo status
        case 'auth|switch'
            echo switch
        case 'auth|token'
            echo token
        case 'chambers|list' 'chambers|ls'
            echo list
        case 'chambers|get' 'chambers|show' 'chambers|view'
            echo get
        case 'chambers|create'
            echo create
        case 'members|list' 'members|ls'
            echo list
        case 'members|add'
            echo add
        case 'events|list' 'events|ls'
            echo list
        case 'report|members'
            echo members
        case 'report|duplicates'
            echo duplicates
        case '*'
            return 1
    end
end

# Whether option $argv[2] of command path $argv[1] takes a value (in the next word).
function __chamberctl_takes_value
    switch "$argv[1]|$argv[2]"
        case 'login|--client-id'
            return 0
        case 'chambers list|--type'
            return 0
        case 'chambers list|--status'
            return 0
        case 'chambers list|--sort'
            return 0
        case 'chambers list|--page'
            return 0
        case 'chambers list|--per-page'
            return 0
        case 'chambers list|--limit'
            return 0
        case 'chambers get|--include'
            return 0
        case 'chambers create|--name'
            return 0
        case 'chambers create|--type'
            return 0
        case 'chambers create|--hq-id'
            return 0
        case 'chambers create|--address'
            return 0
        case 'chambers create|--address-field'
            return 0
        case 'chambers create|--from-file'
            return 0
        case 'members list|--status'
            return 0
        case 'members list|--sort'
            return 0
        case 'members list|--page'
            return 0
        case 'members list|--per-page'
            return 0
        case 'members list|--limit'
            return 0
        case 'members add|--name'
            return 0
        case 'members add|--email'
            return 0
        case 'members add|--phone'
            return 0
        case 'members add|--membership-type'
            return 0
        case 'members add|--from-file'
            return 0
        case 'members add|--concurrency'
            return 0
        case 'events list|--status'
            return 0
        case 'events list|--from'
            return 0
        case 'events list|--to'
            return 0
        case 'events list|--page'
            return 0
        case 'events list|--per-page'
            return 0
        case 'events list|--limit'
            return 0
        case 'seed|--report'
            return 0
        case 'seed|--concurrency'
            return 0
        case 'export|--type'
            return 0
        case 'export|--status'
            return 0
        case 'report members|--type'
            return 0
        case 'report members|--status'
            return 0
        case 'report members|--member-status'
            return 0
        case 'report members|--limit'
            return 0
        case 'report duplicates|--type'
            return 0
        case 'report duplicates|--status'
            return 0
        case 'report duplicates|--member-status'
            return 0
        case 'api|-X' 'api|--method'
            return 0
        case 'api|-f' 'api|--raw-field'
            return 0
        case 'api|-F' 'api|--field'
            return 0
        case 'api|--input'
            return 0
        case 'api|-H' 'api|--header'
            return 0
        case 'sandbox|--host'
            return 0
        case 'sandbox|--port'
            return 0
        case 'sandbox|--data'
            return 0
        case 'sandbox|--demo-members'
            return 0
        case 'sandbox|--token-ttl'
            return 0
        case 'sandbox|--client-id'
            return 0
        case 'sandbox|--client-secret'
            return 0
        case 'sandbox|--latency'
            return 0
        case 'sandbox|--fail-rate'
            return 0
        case 'sandbox|--port-file'
            return 0
        case 'sandbox|--cors'
            return 0
        case '*|--profile'
            return 0
        case '*|--base-url'
            return 0
        case '*|-o' '*|--output'
            return 0
        case '*|--fields'
            return 0
        case '*|--jq'
            return 0
        case '*|--timeout'
            return 0
    end
    return 1
end

# Succeeds when the words before the cursor name command path $argv[1] ('' is chamberctl
# itself) and, if $argv[2] is given, have given it that many arguments ("N+": at least N).
function __chamberctl_at
    set -l words (commandline -opc)
    set -e words[1]
    set -l path ''
    set -l name
    set -l n 0
    set -l options 1
    while set -q words[1]
        set -l word $words[1]
        set -e words[1]
        if test $options = 1; and string match -qr -- '^-.' $word
            if test "$word" = --
                set options 0
            else if not string match -q -- '--*=*' $word; and __chamberctl_takes_value "$path" $word
                set -e words[1]
            end
        else if test $n = 0; and set name (__chamberctl_command "$path" $word)
            set path (string trim -- "$path $name")
        else
            set n (math $n + 1)
        end
    end
    test "$path" = "$argv[1]"; or return 1
    set -q argv[2]; or return 0
    if string match -q -- '*+' $argv[2]
        test $n -ge (string trim -r -c + -- $argv[2])
    else
        test $n -eq $argv[2]
    end
end

# Lines of `chamberctl __complete chamber-ids` are id<TAB>name, as fish wants them. The
# --profile, --base-url and --sandbox typed on the line choose the server.
function __chamberctl_chamber_ids
    set -l words (commandline -opc)
    set -l pass
    set -l i 2
    while test $i -le (count $words)
        switch $words[$i]
            case --
                break
            case --sandbox '--profile=*' '--base-url=*'
                set -a pass $words[$i]
            case --profile --base-url
                set -a pass $words[$i]
                set i (math $i + 1)
                set -q words[$i]; and set -a pass $words[$i]
        end
        set i (math $i + 1)
    end
    command chamberctl $pass __complete chamber-ids 2>/dev/null
end

# A comma-separated list of $argv: the last element of the word at the cursor is completed after
# the ones before it, which are not offered again.
function __chamberctl_list
    set -l word (string replace -r -- '^--[^=]*=' '' (commandline -ct))
    set -l head (string match -r -- '^.*,' $word); or set head ''
    set -l given (string split , -- $head)
    for value in $argv
        contains -- $value $given; or echo $head$value
    end
end

# Lines of `chamberctl __complete profiles` are profile names.
function __chamberctl_profiles
    command chamberctl __complete profiles 2>/dev/null
end

complete -c chamberctl -f
complete -c chamberctl -s V -l version -d 'print the version'
complete -c chamberctl -l profile -x -a '(__chamberctl_profiles)' -d 'named profile (env CHAMBERCTL_PROFILE) (default: the one auth switch chose, else "default")'
complete -c chamberctl -l base-url -x -d 'API base URL ending in /v1 or /v2 (env CHAMBERCTL_BASE_URL)'
complete -c chamberctl -l sandbox -d 'run against an embedded sandbox (env CHAMBERCTL_SANDBOX=v2 or v1)'
complete -c chamberctl -s o -l output -x -a 'table tsv json ndjson csv yaml' -d 'output format: table, tsv, json, ndjson, csv, yaml (default: table on a terminal, tsv in a pipe)'
complete -c chamberctl -l json -d 'same as -o json'
complete -c chamberctl -l fields -x -d 'comma-separated columns or keys to print, e.g. id,address.city (see: chamberctl fields)'
complete -c chamberctl -l wide -d 'tables: every column, instead of fitting the terminal'
complete -c chamberctl -l jq -x -d 'filter JSON output with jq (once per record with -o ndjson)'
complete -c chamberctl -l no-color -d 'no colour (also NO_COLOR; FORCE_COLOR forces it)'
complete -c chamberctl -l no-input -d 'never prompt; a missing value is an error (also CI=true)'
complete -c chamberctl -s y -l yes -d 'skip confirmations'
complete -c chamberctl -l debug -d 'trace HTTP requests on stderr, secrets redacted (env CHAMBERCTL_DEBUG=1)'
complete -c chamberctl -l timeout -x -d 'per-attempt timeout, connecting included; 0 for none (env CHAMBERCTL_TIMEOUT) (default: 30)'
complete -c chamberctl -l insecure-http -d 'allow credentials over plain HTTP to a host that is not loopback (env CHAMBERCTL_INSECURE_HTTP=1)'
complete -c chamberctl -s q -l quiet -d 'no progress and no informational lines on stderr'
complete -c chamberctl -l no-pager -d 'on a terminal, no pager for output longer than the screen (env CHAMBERCTL_PAGER, PAGER)'
complete -c chamberctl -l accessible -d 'for screen readers: no animation, numbered choices, tables as key: value blocks (env CHAMBERCTL_ACCESSIBLE=1)'
complete -c chamberctl -s h -l help -d 'show help'

complete -c chamberctl -n "__chamberctl_at '' 0" -a login -d 'log in to a chamber directory and store the profile'
complete -c chamberctl -n "__chamberctl_at '' 0" -a logout -d 'forget the profile\'s token and secret'
complete -c chamberctl -n "__chamberctl_at '' 0" -a auth -d 'inspect authentication'
complete -c chamberctl -n "__chamberctl_at '' 0" -a chambers -d 'list, show and create chambers'
complete -c chamberctl -n "__chamberctl_at '' 0" -a members -d 'list and add the members of a chamber'
complete -c chamberctl -n "__chamberctl_at '' 0" -a events -d 'list the events of a chamber (v2)'
complete -c chamberctl -n "__chamberctl_at '' 0" -a seed -d 'create the chambers and members of a fixture file (JSON or YAML) (v2)'
complete -c chamberctl -n "__chamberctl_at '' 0" -a export -d 'write chambers (all, or those named) as a seed fixture: YAML, or JSON with --json'
complete -c chamberctl -n "__chamberctl_at '' 0" -a diff -d 'compare a fixture (or an export) with the live directory; exit 1 when they differ'
complete -c chamberctl -n "__chamberctl_at '' 0" -a report -d 'reports across every chamber: all members, shared e-mail addresses'
complete -c chamberctl -n "__chamberctl_at '' 0" -a api -d 'make an authenticated request to any API path and print the answer'
complete -c chamberctl -n "__chamberctl_at '' 0" -a sandbox -d 'run the local reference server of the chamber directory API (v1 and v2)'
complete -c chamberctl -n "__chamberctl_at '' 0" -a fields -d 'list the fields of a resource, for --fields (nested ones as address.city)'
complete -c chamberctl -n "__chamberctl_at '' 0" -a version -d 'print the version (the same as --version)'
complete -c chamberctl -n "__chamberctl_at '' 0" -a completion -d 'print the shell completion script for bash, zsh, fish or PowerShell'
complete -c chamberctl -n "__chamberctl_at '' 0" -a help -d 'show help for a command or a topic, e.g. help members add, help environment'

complete -c chamberctl -n "__chamberctl_at 'login'" -l client-id -x -d 'API client id (env CHAMBERCTL_CLIENT_ID)'
complete -c chamberctl -n "__chamberctl_at 'login'" -l client-secret-stdin -d 'read the client secret from stdin'
complete -c chamberctl -n "__chamberctl_at 'login'" -l no-store-secret -d 'keep only the token, not the secret'
complete -c chamberctl -n "__chamberctl_at 'login'" -l insecure-storage -d 'keep the secret in the config file, not the OS keyring'

complete -c chamberctl -n "__chamberctl_at 'auth' 0" -a status -d 'show the profiles, which is active, and whether its credentials authenticate'
complete -c chamberctl -n "__chamberctl_at 'auth' 0" -a switch -d 'make a profile the active one (--profile overrides it for one command)'
complete -c chamberctl -n "__chamberctl_at 'auth' 0" -a token -d 'print a valid access token (refreshed if needed)'

complete -c chamberctl -n "__chamberctl_at 'auth switch' 0" -a '(__chamberctl_profiles)'

complete -c chamberctl -n "__chamberctl_at 'chambers' 0" -a list -d 'list chambers'
complete -c chamberctl -n "__chamberctl_at 'chambers' 0" -a get -d 'show every field of one chamber'
complete -c chamberctl -n "__chamberctl_at 'chambers' 0" -a create -d 'create a chamber (v2); prompts for what is missing on a terminal'

complete -c chamberctl -n "__chamberctl_at 'chambers list'" -l type -x -a 'hq subsidiary' -d 'only this type (v2)'
complete -c chamberctl -n "__chamberctl_at 'chambers list'" -l status -x -a 'active inactive pending' -d 'only this status (v2)'
complete -c chamberctl -n "__chamberctl_at 'chambers list'" -l sort -x -d 'sort by FIELD, or -FIELD for descending (v2)'
complete -c chamberctl -n "__chamberctl_at 'chambers list'" -l page -x -d 'fetch this page (default: 1)'
complete -c chamberctl -n "__chamberctl_at 'chambers list'" -l per-page -x -d 'records per page, 1..100 (default: 20)'
complete -c chamberctl -n "__chamberctl_at 'chambers list'" -l all -d 'fetch every page'
complete -c chamberctl -n "__chamberctl_at 'chambers list'" -l limit -x -d 'print at most this many records, across pages'
complete -c chamberctl -n "__chamberctl_at 'chambers list'" -l fields -x -a '(__chamberctl_list id name type hq_id status address address.street address.city address.postal_code address.region address.country created_at members events)' -d 'comma-separated columns or keys to print, e.g. id,address.city (see: chamberctl fields)'

complete -c chamberctl -n "__chamberctl_at 'chambers get'" -l include -x -d 'embed related records: members, events (v2; the first page of each, with its total)'
complete -c chamberctl -n "__chamberctl_at 'chambers get'" -l fields -x -a '(__chamberctl_list id name type hq_id status address address.street address.city address.postal_code address.region address.country created_at members events)' -d 'comma-separated columns or keys to print, e.g. id,address.city (see: chamberctl fields)'
complete -c chamberctl -n "__chamberctl_at 'chambers get' 0" -a '(__chamberctl_chamber_ids)'

complete -c chamberctl -n "__chamberctl_at 'chambers create'" -l name -x -d 'chamber name'
complete -c chamberctl -n "__chamberctl_at 'chambers create'" -l type -x -a 'hq subsidiary' -d 'chamber type'
complete -c chamberctl -n "__chamberctl_at 'chambers create'" -l hq-id -x -a '(__chamberctl_chamber_ids)' -d 'headquarters chamber id (for a subsidiary)'
complete -c chamberctl -n "__chamberctl_at 'chambers create'" -l address -x -d 'address as a JSON object'
complete -c chamberctl -n "__chamberctl_at 'chambers create'" -l address-field -x -d 'one address field; repeatable'
complete -c chamberctl -n "__chamberctl_at 'chambers create'" -l from-file -r -F -d 'a JSON object with the fields (- for stdin); flags override it'
complete -c chamberctl -n "__chamberctl_at 'chambers create'" -l dry-run -d 'print the request body and send nothing'
complete -c chamberctl -n "__chamberctl_at 'chambers create'" -l fields -x -a '(__chamberctl_list id name type hq_id status address address.street address.city address.postal_code address.region address.country created_at members events)' -d 'comma-separated columns or keys to print, e.g. id,address.city (see: chamberctl fields)'

complete -c chamberctl -n "__chamberctl_at 'members' 0" -a list -d 'list the members of a chamber'
complete -c chamberctl -n "__chamberctl_at 'members' 0" -a add -d 'add a member (v2), or many from a file; prompts for what is missing on a terminal'

complete -c chamberctl -n "__chamberctl_at 'members list'" -l status -x -a 'active inactive pending' -d 'only this status (v2)'
complete -c chamberctl -n "__chamberctl_at 'members list'" -l sort -x -d 'sort by FIELD, or -FIELD for descending (v2)'
complete -c chamberctl -n "__chamberctl_at 'members list'" -l page -x -d 'fetch this page (default: 1)'
complete -c chamberctl -n "__chamberctl_at 'members list'" -l per-page -x -d 'records per page, 1..100 (default: 20)'
complete -c chamberctl -n "__chamberctl_at 'members list'" -l all -d 'fetch every page'
complete -c chamberctl -n "__chamberctl_at 'members list'" -l limit -x -d 'print at most this many records, across pages'
complete -c chamberctl -n "__chamberctl_at 'members list'" -l fields -x -a '(__chamberctl_list id name email phone membership_type status joined_at chamber_id)' -d 'comma-separated columns or keys to print, e.g. id,address.city (see: chamberctl fields)'
complete -c chamberctl -n "__chamberctl_at 'members list' 0" -a '(__chamberctl_chamber_ids)'

complete -c chamberctl -n "__chamberctl_at 'members add'" -l name -x -d 'member name'
complete -c chamberctl -n "__chamberctl_at 'members add'" -l email -x -d 'e-mail address'
complete -c chamberctl -n "__chamberctl_at 'members add'" -l phone -x -d 'phone number'
complete -c chamberctl -n "__chamberctl_at 'members add'" -l membership-type -x -d 'membership type, e.g. standard'
complete -c chamberctl -n "__chamberctl_at 'members add'" -l from-file -r -F -d 'JSON object, JSON array, NDJSON or CSV (- for stdin); many rows = bulk'
complete -c chamberctl -n "__chamberctl_at 'members add'" -l dry-run -d 'print what would be sent and send nothing'
complete -c chamberctl -n "__chamberctl_at 'members add'" -l concurrency -x -d 'requests in flight at once in a bulk run'
complete -c chamberctl -n "__chamberctl_at 'members add'" -l verbose -d 'bulk: on a terminal, print every row, not only the failures'
complete -c chamberctl -n "__chamberctl_at 'members add'" -l skip-existing -d 'bulk: skip rows whose e-mail the chamber already has'
complete -c chamberctl -n "__chamberctl_at 'members add'" -l resume -d 'bulk: continue a run that ended early, sending only rows not yet created'
complete -c chamberctl -n "__chamberctl_at 'members add' 0" -a '(__chamberctl_chamber_ids)'

complete -c chamberctl -n "__chamberctl_at 'events' 0" -a list -d 'list the events of a chamber (v2)'

complete -c chamberctl -n "__chamberctl_at 'events list'" -l status -x -a 'upcoming past canceled' -d 'only this status'
complete -c chamberctl -n "__chamberctl_at 'events list'" -l from -x -d 'only events ending on or after this date, or date-time with Z or an offset'
complete -c chamberctl -n "__chamberctl_at 'events list'" -l to -x -d 'only events starting on or before this date (all of it), or date-time with Z or an offset'
complete -c chamberctl -n "__chamberctl_at 'events list'" -l page -x -d 'fetch this page (default: 1)'
complete -c chamberctl -n "__chamberctl_at 'events list'" -l per-page -x -d 'records per page, 1..100 (default: 20)'
complete -c chamberctl -n "__chamberctl_at 'events list'" -l all -d 'fetch every page'
complete -c chamberctl -n "__chamberctl_at 'events list'" -l limit -x -d 'print at most this many records, across pages'
complete -c chamberctl -n "__chamberctl_at 'events list'" -l fields -x -a '(__chamberctl_list id chamber_id title status starts_at ends_at location created_at)' -d 'comma-separated columns or keys to print, e.g. id,address.city (see: chamberctl fields)'
complete -c chamberctl -n "__chamberctl_at 'events list' 0" -a '(__chamberctl_chamber_ids)'

complete -c chamberctl -n "__chamberctl_at 'seed'" -l dry-run -d 'print the plan and send nothing'
complete -c chamberctl -n "__chamberctl_at 'seed'" -l offline -d 'with --dry-run: only check the file, without a server'
complete -c chamberctl -n "__chamberctl_at 'seed'" -l report -r -F -d 'also write the JSON report to this file'
complete -c chamberctl -n "__chamberctl_at 'seed'" -l concurrency -x -d 'requests in flight at once'
complete -c chamberctl -n "__chamberctl_at 'seed'" -l verbose -d 'on a terminal, print every record, not only the failures'
complete -c chamberctl -n "__chamberctl_at 'seed'" -l skip-existing -d 'skip chambers and members that already exist (re-runs)'
complete -c chamberctl -n "__chamberctl_at 'seed'" -l resume -d 'continue a run that ended early, sending only records not yet created'
complete -c chamberctl -n "__chamberctl_at 'seed' 0" -F

complete -c chamberctl -n "__chamberctl_at 'export'" -l type -x -a 'hq subsidiary' -d 'only this type (v2)'
complete -c chamberctl -n "__chamberctl_at 'export'" -l status -x -a 'active inactive pending' -d 'only this status (v2)'
complete -c chamberctl -n "__chamberctl_at 'export'" -l members -d 'with each chamber\'s members'
complete -c chamberctl -n "__chamberctl_at 'export' 0+" -a '(__chamberctl_chamber_ids)'

complete -c chamberctl -n "__chamberctl_at 'diff'" -l members -d 'also compare the members of each chamber'

complete -c chamberctl -n "__chamberctl_at 'report' 0" -a members -d 'every member of every chamber, beside the chamber\'s id, name and city'
complete -c chamberctl -n "__chamberctl_at 'report' 0" -a duplicates -d 'members sharing an e-mail address, within a chamber or across chambers'

complete -c chamberctl -n "__chamberctl_at 'report members'" -l type -x -a 'hq subsidiary' -d 'only this type (v2)'
complete -c chamberctl -n "__chamberctl_at 'report members'" -l status -x -a 'active inactive pending' -d 'only this status (v2)'
complete -c chamberctl -n "__chamberctl_at 'report members'" -l member-status -x -a 'active inactive pending' -d 'only members of this status (v2)'
complete -c chamberctl -n "__chamberctl_at 'report members'" -l limit -x -d 'print at most this many members, across chambers'
complete -c chamberctl -n "__chamberctl_at 'report members'" -l fields -x -a '(__chamberctl_list chamber_id chamber_name chamber_city id name email phone membership_type status joined_at)' -d 'comma-separated columns or keys to print, e.g. id,address.city (see: chamberctl fields)'

complete -c chamberctl -n "__chamberctl_at 'report duplicates'" -l type -x -a 'hq subsidiary' -d 'only this type (v2)'
complete -c chamberctl -n "__chamberctl_at 'report duplicates'" -l status -x -a 'active inactive pending' -d 'only this status (v2)'
complete -c chamberctl -n "__chamberctl_at 'report duplicates'" -l member-status -x -a 'active inactive pending' -d 'only members of this status (v2)'
complete -c chamberctl -n "__chamberctl_at 'report duplicates'" -l fields -x -a '(__chamberctl_list key chamber_id chamber_name member_id name email)' -d 'comma-separated columns or keys to print, e.g. id,address.city (see: chamberctl fields)'

complete -c chamberctl -n "__chamberctl_at 'api'" -s X -l method -x -d 'HTTP method (default GET, or POST when fields are given)'
complete -c chamberctl -n "__chamberctl_at 'api'" -s f -l raw-field -x -d 'a string field; repeatable'
complete -c chamberctl -n "__chamberctl_at 'api'" -s F -l field -x -d 'a typed field: number, true, false, null, @file; repeatable'
complete -c chamberctl -n "__chamberctl_at 'api'" -l input -r -F -d 'the request body, as is (- for stdin)'
complete -c chamberctl -n "__chamberctl_at 'api'" -s H -l header -x -d 'a request header, \'Name: value\'; repeatable'
complete -c chamberctl -n "__chamberctl_at 'api'" -l paginate -d 'follow every page and print one JSON array of all records'
complete -c chamberctl -n "__chamberctl_at 'api'" -s i -l include -d 'print the status line and the response headers first'

complete -c chamberctl -n "__chamberctl_at 'sandbox'" -l host -x -d 'IP address to listen on (0.0.0.0: every interface, reachable from the network)'
complete -c chamberctl -n "__chamberctl_at 'sandbox'" -l port -x -d 'port to listen on (0 picks a free one)'
complete -c chamberctl -n "__chamberctl_at 'sandbox'" -l data -r -F -d 'keep the records in this SQLite database (created when missing)'
complete -c chamberctl -n "__chamberctl_at 'sandbox'" -l empty -d 'start without demo data'
complete -c chamberctl -n "__chamberctl_at 'sandbox'" -l demo-members -x -d 'add n generated members to the demo chamber ch_0001 before serving'
complete -c chamberctl -n "__chamberctl_at 'sandbox'" -l token-ttl -x -d 'lifetime of issued access tokens'
complete -c chamberctl -n "__chamberctl_at 'sandbox'" -l client-id -x -d 'client id to accept'
complete -c chamberctl -n "__chamberctl_at 'sandbox'" -l client-secret -x -d 'client secret to accept'
complete -c chamberctl -n "__chamberctl_at 'sandbox'" -l latency -x -d 'delay every answer by this many milliseconds'
complete -c chamberctl -n "__chamberctl_at 'sandbox'" -l fail-rate -x -d 'share of requests answered 500, 503 or 429 (0..1)'
complete -c chamberctl -n "__chamberctl_at 'sandbox'" -l port-file -r -F -d 'write the port to this file once serving (atomically)'
complete -c chamberctl -n "__chamberctl_at 'sandbox'" -l cors -x -d 'let web pages on this origin call it (* for any)'
complete -c chamberctl -n "__chamberctl_at 'sandbox'" -l strict -d 'refuse (422) what the spec leaves open instead of ignoring it with a Warning header'
complete -c chamberctl -n "__chamberctl_at 'sandbox'" -l check -d 'serve nothing: exit 0 if a sandbox answers on --host and --port, else 1 (a health check)'

complete -c chamberctl -n "__chamberctl_at 'fields' 0" -a 'chambers members events'

complete -c chamberctl -n "__chamberctl_at 'completion' 0" -a 'bash zsh fish powershell'

complete -c chamberctl -n "__chamberctl_at 'help' 0+" -a 'environment exit-codes formatting bulk fixtures credentials options reference login logout auth chambers members events seed export diff report api sandbox fields version completion help'
