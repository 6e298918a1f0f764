//! Whole UCI conversations through the engine's line handler (search limited to
//! tiny depths): no input may panic it.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut engine = kiln::uci::engine::Engine::new();
    for line in text.lines().take(64) {
        // Keep searches tiny: a fuzzer input must run in milliseconds.
        let line = line.replace("infinite", "depth 1");
        if line.trim_start().starts_with("go") {
            let _ = engine.handle_line("go depth 1");
            let _ = engine.handle_line("stop");
            continue;
        }
        if !engine.handle_line(&line) {
            break;
        }
    }
    let _ = engine.handle_line("quit");
});
