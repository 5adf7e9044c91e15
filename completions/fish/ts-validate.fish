# fish completion for ts-validate(1)
#
# ts-validate [-hqsV] [--json] [--quick] [-m N] PATH ...
#   -h --help, -V --version, -q --quiet, -s --strict, --quick, --json,
#   -m N --max-per-rule N
# A PATH is a bundle directory or its NAME_metadata.json file, so only
# directories and *_metadata.json files are offered.

function __ts_validate_paths --description 'bundle directories and metadata files'
    set -l tok (commandline -ct)
    for f in $tok*
        if test -d "$f"
            printf '%s/\n' $f
        else if string match -q -- '*_metadata.json' $f
            printf '%s\n' $f
        end
    end
end

complete -c ts-validate -f
complete -c ts-validate -s h -l help -d 'Print a usage summary and exit'  # --help
complete -c ts-validate -s V -l version -d 'Print the version and exit'  # --version
complete -c ts-validate -s q -l quiet -d 'Print nothing; only the exit status tells'  # --quiet
complete -c ts-validate -s s -l strict -d 'Count warnings as errors'  # --strict
complete -c ts-validate -l quick -d 'Check metadata, file presence and headers only'  # --quick
complete -c ts-validate -l json -d 'One JSON report per path on stdout'  # --json
complete -c ts-validate -s m -l max-per-rule -x -d 'At most N diagnostics per rule and file (0: no limit)'  # --max-per-rule
complete -c ts-validate -a '(__ts_validate_paths)'
