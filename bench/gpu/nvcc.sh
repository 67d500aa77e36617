# nvcc.sh - sourced by run.sh and coldstart.sh: build_cu SRC BIN compiles a bench/gpu program
# for the GPU of this machine (-arch=native: an sm_90 build would not run on an A100), else
# with nvcc's default target (PTX the driver compiles). NVCC overrides the compiler.
find_nvcc() {
	NVCC=${NVCC:-$(command -v nvcc || true)}
	if [ -z "$NVCC" ]; then
		for c in /usr/local/cuda/bin/nvcc /usr/local/cuda-*/bin/nvcc; do
			if [ -x "$c" ]; then NVCC=$c; break; fi
		done
	fi
	[ -n "$NVCC" ] || { echo "bench/gpu: nvcc not found" >&2; exit 1; }
}

build_cu() {
	find_nvcc
	if ! "$NVCC" -O3 -arch=native -o "$2" "$1"; then
		echo "bench/gpu: -arch=native build failed, retrying with nvcc's default arch" >&2
		"$NVCC" -O3 -o "$2" "$1"
	fi
}
