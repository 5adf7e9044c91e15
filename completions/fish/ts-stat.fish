# fish completion for ts-stat(1)
#
# ts-stat [-fhqrsV] [--json | --csv] [--fibers] [--fit] [--exact] [--plot[=DIR]]
#         [--size N] [--readme] [-m N] [--meta FILE] [-S SIZE] [-T DIR]
#         PATH ...
#   -h --help, -V --version, -f --force, -q --quiet, -r --recursive,
#   -s --strict, --json, --csv, --fibers, --fit, --exact, --plot[=DIR], --size N,
#   --readme, -m N --max-per-rule N, --meta FILE, -S SIZE --buffer-size
#   SIZE, -T DIR --temporary-directory DIR
# A PATH is a bundle directory, its NAME_metadata.json file, a data file
# (.tns, .tnsb, .mtx, compressed or not), a tar archive of bundles, or '-'.

function __ts_stat_paths --description 'bundles, metadata and data files'
    set -l tok (commandline -ct)
    for f in $tok*
        if test -d "$f"
            printf '%s/\n' $f
        else if string match -q -r -- '(_metadata\.json|\.tns|\.tnsb|\.mtx|\.gz|\.zst|\.xz|\.bz2|\.tar|\.tgz|\.tzst|\.txz)$' $f
            printf '%s\n' $f
        end
    end
end

complete -c ts-stat -f
complete -c ts-stat -s h -l help -d 'Print a usage summary and exit'  # --help
complete -c ts-stat -s V -l version -d 'Print the version and exit'  # --version
complete -c ts-stat -s f -l force -d '--plot=DIR: replace pictures that differ'  # --force
complete -c ts-stat -s q -l quiet -d 'No notes or warnings on stderr'  # --quiet
complete -c ts-stat -l require-checksums -d 'An archive without SHA256SUMS is an error'  # --require-checksums
complete -c ts-stat -s r -l recursive -d 'A directory stands for every bundle below it'  # --recursive
complete -c ts-stat -s s -l strict -d 'Count warnings as errors'  # --strict
complete -c ts-stat -l json -d 'One JSON object per tensor'  # --json
complete -c ts-stat -l csv -d 'A header line, then one CSV row per tensor'  # --csv
complete -c ts-stat -l fibers -d 'Count the fibers of each mode too'  # --fibers
complete -c ts-stat -l fit -d 'Fit the slices of each mode with a power law'  # --fit
complete -c ts-stat -l exact -d 'Count large modes and the repeats through the sorter'  # --exact
complete -c ts-stat -l plot -f -a '(__fish_complete_directories)' -d 'Draw pictures (PNG) into each bundle, or into =DIR'  # --plot
complete -c ts-stat -l size -x -d 'Spy plots at most N bins a side'  # --size
complete -c ts-stat -l readme -d 'Add a Statistics section to each bundle README.md'  # --readme
complete -c ts-stat -s m -l max-per-rule -x -d 'At most N diagnostics per rule and file (0: no limit)'  # --max-per-rule
complete -c ts-stat -l meta -r -d 'The metadata of lone data files'  # --meta
complete -c ts-stat -s S -l buffer-size -x -d 'Memory for the sorts'  # --buffer-size
complete -c ts-stat -s T -l temporary-directory -x -a '(__fish_complete_directories)' -d 'Where their runs spill'  # --temporary-directory
complete -c ts-stat -a '(__ts_stat_paths)'
