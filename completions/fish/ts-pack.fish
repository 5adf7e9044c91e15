# fish completion for ts-pack(1)
#
# ts-pack [-fqr] [-j N] [--level N] [--quick|--deep|--no-validate]
#         [--index FILE] (-o ARCHIVE | --each DIR) BUNDLE ...
# ts-pack [-fqr] [--quick|--deep|--no-validate] --sums-only [-o FILE] BUNDLE ...
# ts-pack [-fq] [-C DIR] [--max-size SIZE] [--max-members N] -x ARCHIVE
# ts-pack [--check] [--deep] [--json] -t ARCHIVE
#   -h --help, -V --version, -q --quiet, -r --recursive, -f --force, -o --output,
#   --each DIR, -x --extract, -t --list, -C --directory, -j --jobs,
#   --level N, --quick, --deep, --no-validate, --index FILE,
#   --sums-only, --max-size SIZE, --max-members N, --check, --json
# A BUNDLE is a bundle directory or its NAME_metadata.json file.

# The archives ts-pack writes; with an argument, those it reads (bzip2
# too).
function __ts_pack_archives --argument-names reading --description 'tar archives'
    set -l tok (commandline -ct)
    set -l re '\.(tar|tar\.zst|tzst|tar\.gz|tgz|tar\.xz|txz)$'
    test -n "$reading"; and set re '\.(tar|tar\.zst|tzst|tar\.gz|tgz|tar\.xz|txz|tar\.bz2|tbz2)$'
    for f in $tok*
        if test -d "$f"
            printf '%s/\n' $f
        else if string match -qr -- $re $f
            printf '%s\n' $f
        end
    end
end

function __ts_pack_bundles --description 'bundle directories and metadata files'
    set -l tok (commandline -ct)
    for f in $tok*
        if test -d "$f"
            printf '%s/\n' $f
        else if string match -q -- '*_metadata.json' $f
            printf '%s\n' $f
        end
    end
end

complete -c ts-pack -f
complete -c ts-pack -s h -l help -d 'Print a usage summary and exit'  # --help
complete -c ts-pack -s V -l version -d 'Print the version and exit'  # --version
complete -c ts-pack -s q -l quiet -d 'Print no notes on stderr'  # --quiet
complete -c ts-pack -s r -l recursive -d 'A directory stands for every bundle below it'  # --recursive
complete -c ts-pack -l require-checksums -d 'With -x and -t, an archive without SHA256SUMS is an error'  # --require-checksums
complete -c ts-pack -s f -l force -d 'Replace an existing archive, index or bundle'  # --force
# Packing
complete -c ts-pack -s o -l output -x -a '(__ts_pack_archives)' -d 'Pack the bundles into ARCHIVE'  # --output
complete -c ts-pack -l each -x -a '(__fish_complete_directories)' -d 'One archive per bundle, DIR/NAME.tar.zst'  # --each
complete -c ts-pack -s j -l jobs -x -d 'zstd threads (default: the CPUs it may use)'  # --jobs
complete -c ts-pack -l level -x -d 'Compression level'  # --level
complete -c ts-pack -l quick -d 'Check metadata and headers first (the default)'  # --quick
complete -c ts-pack -l deep -d 'Check every entry first'  # --deep
complete -c ts-pack -l no-validate -d 'Check nothing'  # --no-validate
complete -c ts-pack -l index -r -F -d 'Write an index of the bundles, JSON or CSV'  # --index
complete -c ts-pack -l sums-only -d 'Write only the SHA256SUMS of the bundles, to -o FILE or stdout'  # --sums-only
# Unpacking
complete -c ts-pack -s x -l extract -x -a '(__ts_pack_archives read)' -d 'Unpack the bundles of ARCHIVE'  # --extract
complete -c ts-pack -s C -l directory -x -a '(__fish_complete_directories)' -d 'Unpack into DIR'  # --directory
complete -c ts-pack -l max-size -x -d 'Refuse more data than SIZE (default 8G)'  # --max-size
complete -c ts-pack -l max-members -x -d 'Refuse more members than N (default 100000)'  # --max-members
# Listing
complete -c ts-pack -s t -l list -x -a '(__ts_pack_archives read)' -d 'List the bundles of ARCHIVE'  # --list
complete -c ts-pack -l check -d 'With -t: say valid or invalid'  # --check
complete -c ts-pack -l json -d 'With -t: one JSON object per bundle'  # --json
complete -c ts-pack -a '(__ts_pack_bundles)'
