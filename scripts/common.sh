# Shared by scripts/test and scripts/run (sourced, not executed).
# ROOT must be set by the caller.

export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"

# The app is a debug build with the web UI embedded (src-tauri's default feature `embedded-ui`:
# serve ui/ from the binary, as `tauri build` does, never a dev server URL). Cargo.toml optimises
# the engine crate in dev builds, so the CPU plays at full speed while the Tauri stack keeps the
# fast debug build.

# Name of the Cargo package in src-tauri/ and of its binary, read from cargo metadata.
app_package() {
  cargo metadata --no-deps --format-version 1 --manifest-path "$ROOT/Cargo.toml" |
    node -e '
      let s = ""; process.stdin.on("data", d => s += d).on("end", () => {
        const m = JSON.parse(s);
        const p = m.packages.find(p => p.manifest_path.endsWith("/src-tauri/Cargo.toml"));
        if (!p) process.exit(1);
        const bin = p.targets.find(t => t.kind.includes("bin"));
        console.log(p.name + " " + (bin ? bin.name : p.name));
      });'
}

have_app() { [ -f "$ROOT/src-tauri/Cargo.toml" ]; }

# Sets APP_PACKAGE, APP_BIN and APP_BINARY (the debug build's path); fails if it is not built.
app_binary() {
  read -r APP_PACKAGE APP_BIN < <(app_package) || return 1
  APP_BINARY="$TARGET_DIR/debug/$APP_BIN"
  [ -x "$APP_BINARY" ] || { echo "app binary not found at $APP_BINARY" >&2; return 1; }
}

build_app() {
  read -r APP_PACKAGE APP_BIN < <(app_package) || return 1
  cargo build -p "$APP_PACKAGE" || return 1
  app_binary
}
