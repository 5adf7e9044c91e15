# fish completion for ts-sort(1)
#
# ts-sort [-fhiqV] [-k MODES] [--duplicates POLICY] [-S SIZE] [-T DIR]
#         [-j N] [options] [-o DST] [SRC]
#   -h --help, -V --version, -q --quiet, -c --check, -f --force,
#   -i --in-place,
#   -o DST --output DST, -k MODES --key MODES, --duplicates POLICY,
#   --to KIND, -S SIZE --buffer-size SIZE, -T DIR --temporary-directory DIR,
#   -j N --jobs N, --member NAME, --meta FILE, --input-base 0|1, --input-index-type T,
#   --input-value-type T, --input-endian E, --no-values
# SRC is a bundle (a directory or an archive), a data file (.tns, .tnsb,
# FROSTT .tns, .mtx; compressed or not) or '-'; its kind comes from its
# contents, so every file is offered, and so is every file for DST (-F),
# whose kind --to may give.

# __ts_sort_key: the key 1,2,...,N for the order N of the SRC operand (a
# bundle, its metadata, a TensorSuite, FROSTT or Matrix Market file,
# uncompressed), when its first bytes tell.
function __ts_sort_key
    set -l src
    set -l skip 0
    for w in (commandline -o)[2..-1]
        if test $skip -eq 1
            set skip 0
            continue
        end
        switch $w
            case -k --key -S --buffer-size -T --temporary-directory -j --jobs -o --output --duplicates --to --meta --input-base --input-index-type --input-value-type --input-endian
                set skip 1
            case '-?*'
            case '*'
                if test -e "$w"
                    set src $w
                    break
                end
        end
    end
    test -n "$src"; or return
    set -l f (string trim -r -c / -- $src)
    test -d "$f"; and set f "$f/"(basename -- $f)_metadata.json
    test -f "$f" -a -r "$f"; or return
    set -l n
    if string match -q -- '*_metadata.json' $f
        set n (string match -r -g '"order"\s*:\s*([0-9]+)' < $f)[1]
    else
        set n (head -c 4096 $f | awk '
            NR == 1 && /^%%TensorSuite/ { ts = 1 }
            NR == 1 && tolower($0) ~ /^[ \t]*%+matrixmarket/ { print 2; exit }
            /^%/ { next }
            ts { print $1; exit }
            /^[ \t]*(#|$)/ { next }
            $1 ~ /^[0-9]+$/ { print (NF > 1 ? NF - 1 : 1); exit }
            { exit }')
    end
    string match -q -r '^[1-9][0-9]?$' -- "$n"; and test $n -le 64; or return
    string join , (seq $n)
end

set --local vtypes 'float32 float64 int32 int64'
set --local itypes 'uint32 uint64'
set --local endians 'little big'

complete -c ts-sort -s h -l help -d 'Print a usage summary and exit'  # --help
complete -c ts-sort -s V -l version -d 'Print the version and exit'  # --version
complete -c ts-sort -s q -l quiet -d 'Print no notes on stderr'  # --quiet
complete -c ts-sort -s c -l check -d 'Only tell whether SRC is sorted (exit 0) or not (1)'  # --check
complete -c ts-sort -s f -l force -d 'Replace an existing DST'  # --force
complete -c ts-sort -s i -l in-place -d 'Rewrite the bundle SRC, atomically'  # --in-place
complete -c ts-sort -s o -l output -r -F -d 'Where to write: bundle directory or archive, data file (.tns, .tnsb, .mtx, .json; compressed or not), or -'  # --output
# Sorting
complete -c ts-sort -s k -l key -x -a '(__ts_sort_key)' -d 'Sort key: modes, 1-based, e.g. 3,1,2'  # --key
complete -c ts-sort -l duplicates -x -a 'keep sum first last error' -d 'What to do with repeated coordinates'  # --duplicates
complete -c ts-sort -l to -x -a 'bundle tns tnsb frostt mtx cutensor npz binsparse-npz binsparse-h5 splatt-bin frostt-bin hiparti' -d 'Kind of DST'  # --to
complete -c ts-sort -s S -l buffer-size -x -d 'Memory for entries, e.g. 256M, 2G, 25%'  # --buffer-size
complete -c ts-sort -s T -l temporary-directory -x -a '(__fish_complete_directories)' -d 'Where runs spill'  # --temporary-directory
complete -c ts-sort -s j -l jobs -x -d 'Threads (default 2)'  # --jobs
# A bare data file or stream
complete -c ts-sort -l member -x -d 'The bundle of an archive SRC that holds several'  # --member
complete -c ts-sort -l meta -r -F -d 'Metadata of a bare data file or stream'  # --meta
complete -c ts-sort -l input-base -x -a '0 1' -d 'Index base of a bare input'  # --input-base
complete -c ts-sort -l input-index-type -x -a "$itypes" -d 'Index type of a binary stream'  # --input-index-type
complete -c ts-sort -l input-value-type -x -a "$vtypes" -d 'Value type of a binary stream'  # --input-value-type
complete -c ts-sort -l input-endian -x -a "$endians" -d 'Byte order of a binary stream'  # --input-endian
complete -c ts-sort -l no-values -d 'A binary stream holds coordinates only'  # --no-values
complete -c ts-sort -l require-checksums -d 'An archive SRC without SHA256SUMS is an error'  # --require-checksums
# SRC: any file or directory (fish offers files by default).
