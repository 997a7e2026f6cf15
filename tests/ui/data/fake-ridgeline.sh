#!/bin/sh
# A stand-in for `ridgeline` in the capture dialog tests: checks the command line the dialog
# builds and speaks the --progress protocol of capture-contract.md. FAKE_MODE (set through the
# dialog's environment additions) picks the story; FAKE_SESSION is the session it "captures".
if [ "$1" != capture ] || [ "$2" != --progress ] || [ "$3" != -o ]; then
    echo "fake ridgeline: unexpected command line: $*" >&2
    exit 64
fi
out=$4
shift 4
while [ $# -gt 0 ] && [ "$1" != -- ]; do shift; done
shift
echo "program: $*"
echo "cwd: $(pwd)"
progress() { printf 'ridgeline-progress: %s\n' "$1" >&2; }
progress "{\"event\":\"started\",\"pid\":$$,\"output\":\"$out\"}"
case "$FAKE_MODE" in
success)
    echo "target says hello"
    progress '{"event":"running","seconds":1,"parts":1,"kernels":5}'
    progress '{"event":"merging","parts":1}'
    cp "$FAKE_SESSION" "$out"
    progress "{\"event\":\"finished\",\"status\":\"complete\",\"output\":\"$out\",\"exit_code\":0,\"kernels\":7,\"memops\":3}"
    echo "ridgeline: wrote 7 kernels to $out" >&2
    exit 0
    ;;
error)
    progress '{"event":"error","message":"No NVIDIA driver: libcuda.so.1 cannot be loaded, so nothing can be captured on this machine."}'
    echo "ridgeline: No NVIDIA driver: libcuda.so.1 cannot be loaded, so nothing can be captured on this machine." >&2
    exit 69
    ;;
silent-failure)
    echo "ridgeline: cannot create /nonexistent/out.ridge.parts: Permission denied" >&2
    exit 73
    ;;
until-interrupted)
    # Stop on SIGINT as the real launcher does: the target is stopped, the capture kept.
    trap 'progress "{\"event\":\"merging\",\"parts\":1}"; cp "$FAKE_SESSION" "$out"; progress "{\"event\":\"finished\",\"status\":\"partial\",\"output\":\"$out\",\"exit_code\":130,\"kernels\":3,\"memops\":0}"; exit 130' INT
    i=0
    while :; do
        i=$((i + 1))
        progress "{\"event\":\"running\",\"seconds\":$i,\"parts\":1,\"kernels\":$i}"
        sleep 0.1
    done
    ;;
deaf)
    trap '' INT
    while :; do sleep 0.1; done
    ;;
esac
echo "fake ridgeline: unknown FAKE_MODE '$FAKE_MODE'" >&2
exit 70
