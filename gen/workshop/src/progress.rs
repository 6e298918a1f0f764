//! Progress of the long tools (`datagen`, `label`, `tune`, `train`) on stderr.
//!
//! On a terminal: a bar that redraws in place, with the count, the rate and
//! the time left (indicatif). Anywhere else (a log file, a pipe, CI): a
//! plain line about every ten seconds and one at the end, each ending in a
//! newline and none using `\r`, so that a log reads line by line. The tools'
//! own summary lines are printed by the tools, unchanged, after this.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

/// How often the plain form prints a line.
const PLAIN_INTERVAL: Duration = Duration::from_secs(10);

/// The progress of one job: `done` of `total` `unit`s (a total may be
/// unknown), plus a free-form message such as the current loss.
pub struct Progress {
    display: Display,
}

enum Display {
    Bar(ProgressBar),
    Plain(Plain),
}

/// The plain form's state: what to print, and when it last printed.
struct Plain {
    label: &'static str,
    unit: &'static str,
    total: Option<u64>,
    done: u64,
    /// Units done before this run (a resumed job): left out of the rate.
    before: u64,
    message: String,
    start: Instant,
    last: Instant,
    interval: Duration,
    out: Box<dyn Write + Send>,
}

impl Progress {
    /// Progress of job `label` counted in `unit`s (plural, as in
    /// `positions`), out of `total` if known: a bar when stderr is a
    /// terminal, plain periodic lines when it is not.
    pub fn new(label: &'static str, unit: &'static str, total: Option<u64>) -> Progress {
        if std::io::stderr().is_terminal() {
            Progress::bar(label, unit, total)
        } else {
            Progress::plain(
                label,
                unit,
                total,
                Box::new(std::io::stderr()),
                PLAIN_INTERVAL,
            )
        }
    }

    fn bar(label: &'static str, unit: &'static str, total: Option<u64>) -> Progress {
        let template = match total {
            Some(_) => format!(
                "{{prefix}}: [{{elapsed}}] {{wide_bar}} {{human_pos}}/{{human_len}} {unit} \
                 ({{per_sec:1}}, ETA {{eta}}) {{msg}}"
            ),
            None => format!(
                "{{prefix}}: [{{elapsed}}] {{spinner}} {{human_pos}} {unit} ({{per_sec:1}}) {{msg}}"
            ),
        };
        // The template is fixed text; should it ever not parse, the
        // default style still shows the bar.
        let style = ProgressStyle::with_template(&template)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
        let bar = match total {
            Some(total) => ProgressBar::new(total),
            None => ProgressBar::new_spinner(),
        }
        .with_style(style)
        .with_prefix(label);
        // Keeps the elapsed time and the spinner moving while a long step
        // (a tuning epoch) reports nothing.
        bar.enable_steady_tick(Duration::from_millis(250));
        Progress {
            display: Display::Bar(bar),
        }
    }

    fn plain(
        label: &'static str,
        unit: &'static str,
        total: Option<u64>,
        out: Box<dyn Write + Send>,
        interval: Duration,
    ) -> Progress {
        let start = Instant::now();
        Progress {
            display: Display::Plain(Plain {
                label,
                unit,
                total,
                done: 0,
                before: 0,
                message: String::new(),
                start,
                last: start,
                interval,
                out,
            }),
        }
    }

    /// Starts the count at `before` units done by an earlier run of a
    /// resumed job (`kiln-workshop datagen --append`): they count towards the total
    /// but not towards the rate and the time left.
    pub fn resume_from(&mut self, before: u64) {
        match &mut self.display {
            Display::Bar(bar) => {
                bar.set_position(before);
                bar.reset_eta();
            }
            Display::Plain(plain) => {
                plain.done = before;
                plain.before = before;
            }
        }
    }

    /// Reports `done` units so far, with `message` (may be empty) shown
    /// after the count.
    pub fn update(&mut self, done: u64, message: &str) {
        self.update_at(done, message, Instant::now());
    }

    fn update_at(&mut self, done: u64, message: &str, now: Instant) {
        match &mut self.display {
            Display::Bar(bar) => {
                bar.set_position(done);
                if bar.message() != message {
                    bar.set_message(message.to_string());
                }
            }
            Display::Plain(plain) => {
                plain.done = done;
                message.clone_into(&mut plain.message);
                if now.duration_since(plain.last) >= plain.interval {
                    plain.last = now;
                    plain.print(now);
                }
            }
        }
    }

    /// Runs `f`, which prints to the terminal, with the bar lifted out of
    /// the way so that its lines and the bar do not overwrite each other.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.display {
            Display::Bar(bar) => bar.suspend(f),
            Display::Plain(_) => f(),
        }
    }

    /// Ends the job: the bar stays on screen in its final state; the plain
    /// form prints its last line.
    pub fn finish(&mut self) {
        match &mut self.display {
            Display::Bar(bar) => bar.finish(),
            Display::Plain(plain) => plain.print(Instant::now()),
        }
    }
}

impl Plain {
    fn print(&mut self, now: Instant) {
        let line = plain_line(
            self.label,
            self.unit,
            (self.before, self.done),
            self.total,
            &self.message,
            now.duration_since(self.start),
        );
        // Progress is a courtesy: a closed stderr must not stop the job.
        let _ = writeln!(self.out, "{line}");
        let _ = self.out.flush();
    }
}

/// One plain progress line, for instance `datagen: 1200/10000 positions
/// (12.0 %), 45 games, 40.0 positions/s, 30 s elapsed, ETA 3 m 40 s`;
/// `(before, done)`: the units an earlier run did, and all done so far.
fn plain_line(
    label: &str,
    unit: &str,
    (before, done): (u64, u64),
    total: Option<u64>,
    message: &str,
    elapsed: Duration,
) -> String {
    let secs = elapsed.as_secs_f64();
    let this_run = done.saturating_sub(before);
    let rate = if secs > 0.0 {
        this_run as f64 / secs
    } else {
        0.0
    };
    let mut line = match total {
        Some(total) => format!(
            "{label}: {done}/{total} {unit} ({:.1} %)",
            100.0 * done as f64 / total.max(1) as f64
        ),
        None => format!("{label}: {done} {unit}"),
    };
    if !message.is_empty() {
        line.push_str(", ");
        line.push_str(message);
    }
    line.push_str(&format!(
        ", {rate:.1} {unit}/s, {} elapsed",
        human_duration(secs)
    ));
    if let Some(total) = total.filter(|&total| rate > 0.0 && done < total) {
        let left = (total - done) as f64 / rate;
        line.push_str(&format!(", ETA {}", human_duration(left)));
    }
    line
}

/// `42 s`, `3 m 05 s`, `2 h 07 m`.
pub(crate) fn human_duration(secs: f64) -> String {
    let secs = secs.round() as u64;
    match secs {
        0..60 => format!("{secs} s"),
        60..3600 => format!("{} m {:02} s", secs / 60, secs % 60),
        _ => format!("{} h {:02} m", secs / 3600, secs / 60 % 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A writer whose bytes the test can read back.
    #[derive(Clone, Default)]
    struct Sink(Arc<Mutex<Vec<u8>>>);

    impl Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().expect("sink").extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Sink {
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().expect("sink").clone()).expect("UTF-8")
        }
    }

    #[test]
    fn plain_lines_come_every_interval_and_at_the_end_without_carriage_returns() {
        let sink = Sink::default();
        let mut progress = Progress::plain(
            "datagen",
            "games",
            Some(10),
            Box::new(sink.clone()),
            Duration::from_secs(10),
        );
        let Display::Plain(plain) = &progress.display else {
            panic!("plain form expected");
        };
        let start = plain.start;
        let at = |secs| start + Duration::from_secs(secs);
        progress.update_at(1, "9 positions", at(1));
        assert_eq!(sink.text(), "", "nothing before the interval has passed");
        progress.update_at(4, "40 positions", at(10));
        progress.update_at(5, "50 positions", at(15));
        progress.update_at(6, "60 positions", at(20));
        progress.update_at(10, "100 positions", at(25));
        progress.finish();
        let text = sink.text();
        assert!(!text.contains('\r'), "{text:?}");
        assert!(text.ends_with('\n'), "{text:?}");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "at 10 s, at 20 s and at the end: {text}");
        assert_eq!(
            lines[0],
            "datagen: 4/10 games (40.0 %), 40 positions, 0.4 games/s, 10 s elapsed, ETA 15 s"
        );
        assert!(lines[1].starts_with("datagen: 6/10 games (60.0 %), 60 positions,"));
        assert!(
            lines[2].starts_with("datagen: 10/10 games (100.0 %), 100 positions,"),
            "{}",
            lines[2]
        );
        assert!(!lines[2].contains("ETA"), "nothing left: {}", lines[2]);
    }

    #[test]
    fn plain_lines_without_a_total_or_a_message() {
        assert_eq!(
            plain_line(
                "tune",
                "positions",
                (0, 300),
                None,
                "",
                Duration::from_secs(150)
            ),
            "tune: 300 positions, 2.0 positions/s, 2 m 30 s elapsed"
        );
        assert_eq!(
            plain_line("label", "positions", (0, 0), Some(7), "", Duration::ZERO),
            "label: 0/7 positions (0.0 %), 0.0 positions/s, 0 s elapsed"
        );
        assert_eq!(human_duration(7325.0), "2 h 02 m");
        // A resumed job: 700 positions from before, 100 in 10 s now.
        assert_eq!(
            plain_line(
                "datagen",
                "positions",
                (700, 800),
                Some(1000),
                "",
                Duration::from_secs(10)
            ),
            "datagen: 800/1000 positions (80.0 %), 10.0 positions/s, 10 s elapsed, ETA 20 s"
        );
    }
}
