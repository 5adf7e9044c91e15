# fish completion for ts-validate(1)
#
# ts-validate [-hqrsV] [--format FMT] [--json] [--quick] [-j N] [-m N]
#             [--meta FILE] PATH ...
#   -h --help, -V --version, -q --quiet, -r --recursive, -s --strict,
#   --quick, --json, --format FMT, -j N --jobs N, -m N --max-per-rule N,
#   --meta FILE, -S SIZE --buffer-size SIZE, -T DIR --temporary-directory DIR
# A PATH is a bundle directory, its NAME_metadata.json file, a data file
# (.tns, .tnsb, .mtx, compressed or not), a tar archive of bundles, or '-'.

function __ts_validate_paths --description 'bundles, metadata and data files'
    set -l tok (commandline -ct)
    for f in $tok*
        if test -d "$f"
            printf '%s/\n' $f
        else if string match -q -r -- '(_metadata\.json|\.tns|\.tnsb|\.mtx|\.gz|\.zst|\.xz|\.bz2|\.tar|\.tgz|\.tzst|\.txz|\.tbz2)$' $f
            printf '%s\n' $f
        end
    end
end

complete -c ts-validate -f
complete -c ts-validate -s h -l help -d 'Print a usage summary and exit'  # --help
complete -c ts-validate -s V -l version -d 'Print the version and exit'  # --version
complete -c ts-validate -s q -l quiet -d 'Print nothing; only the exit status tells'  # --quiet
complete -c ts-validate -s r -l recursive -d 'A directory stands for every bundle below it'  # --recursive
complete -c ts-validate -s s -l strict -d 'Count warnings as errors'  # --strict
complete -c ts-validate -l quick -d 'Check metadata, file presence and headers only'  # --quick
complete -c ts-validate -l json -d 'One JSON report per path on stdout'  # --json
complete -c ts-validate -l format -x -a 'text json github junit' -d 'How to report'  # --format
complete -c ts-validate -s j -l jobs -x -d 'Check N operands at once'  # --jobs
complete -c ts-validate -s m -l max-per-rule -x -d 'At most N diagnostics per rule and file (0: no limit)'  # --max-per-rule
complete -c ts-validate -l meta -r -d 'The metadata of lone data files'  # --meta
complete -c ts-validate -l checksums -r -F -d 'Check the files a SHA256SUMS lists'  # --checksums
complete -c ts-validate -l require-checksums -d 'An archive without SHA256SUMS is an error'  # --require-checksums
complete -c ts-validate -s S -l buffer-size -x -d 'Memory for the checks that sort'  # --buffer-size
complete -c ts-validate -s T -l temporary-directory -x -a '(__fish_complete_directories)' -d 'Where their runs spill'  # --temporary-directory
complete -c ts-validate -a '(__ts_validate_paths)'
