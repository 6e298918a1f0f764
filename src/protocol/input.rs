//! Reading the GUI's input one line at a time. Invalid UTF-8 is replaced,
//! never fatal, and a line may be cut at a length limit (the reader says
//! when it was), so no input can panic the engine or make it hold an
//! unbounded line in memory.

use std::io::{self, BufRead};

/// Lines of a [`BufRead`], each without its `\n` and lossily decoded.
#[derive(Debug)]
pub struct LineReader<R> {
    input: R,
    buffer: Vec<u8>,
    max_bytes: usize,
    /// Whether the last line returned was longer than `max_bytes`.
    cut: bool,
}

impl<R: BufRead> LineReader<R> {
    /// A reader that keeps at most `max_bytes` of each line (the rest of a
    /// longer line is read and dropped).
    pub fn new(input: R, max_bytes: usize) -> Self {
        Self {
            input,
            buffer: Vec::new(),
            max_bytes,
            cut: false,
        }
    }

    /// The next line, or `None` at the end of input (or on a read error,
    /// which ends the connection the same way).
    pub fn next_line(&mut self) -> Option<String> {
        self.buffer.clear();
        match read_bounded_line(&mut self.input, &mut self.buffer, self.max_bytes) {
            Ok(Some(cut)) => {
                self.cut = cut;
                Some(String::from_utf8_lossy(&self.buffer).into_owned())
            }
            Ok(None) | Err(_) => None,
        }
    }

    /// Whether the line [`next_line`](Self::next_line) returned last was
    /// cut at the length limit (the caller should refuse it rather than
    /// act on its start).
    pub fn last_line_was_cut(&self) -> bool {
        self.cut
    }
}

impl<R: BufRead> Iterator for LineReader<R> {
    type Item = String;

    fn next(&mut self) -> Option<String> {
        self.next_line()
    }
}

/// Reads one line into `buffer`, keeping at most `max_bytes` of it.
/// Returns `None` at end of input, else whether the line was cut.
fn read_bounded_line(
    input: &mut impl BufRead,
    buffer: &mut Vec<u8>,
    max_bytes: usize,
) -> io::Result<Option<bool>> {
    let mut read_any = false;
    let mut cut = false;
    loop {
        let (used, done) = {
            let available = match input.fill_buf() {
                Ok(available) => available,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                return Ok(read_any.then_some(cut));
            }
            read_any = true;
            let (chunk, used, done) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (&available[..i], i + 1, true),
                None => (available, available.len(), false),
            };
            let room = max_bytes.saturating_sub(buffer.len());
            cut |= chunk.len() > room;
            buffer.extend_from_slice(&chunk[..chunk.len().min(room)]);
            (used, done)
        };
        input.consume(used);
        if done {
            return Ok(Some(cut));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_lines() {
        const MAX: usize = 1024;
        let long = "x".repeat(MAX * 2);
        let text = format!("ping 1\r\n{long}\nlast");
        let mut input = io::Cursor::new(text.into_bytes());
        let mut buffer = Vec::new();
        assert_eq!(
            read_bounded_line(&mut input, &mut buffer, MAX).unwrap(),
            Some(false)
        );
        assert_eq!(buffer, b"ping 1\r");
        buffer.clear();
        assert_eq!(
            read_bounded_line(&mut input, &mut buffer, MAX).unwrap(),
            Some(true)
        );
        assert_eq!(buffer.len(), MAX);
        buffer.clear();
        assert_eq!(
            read_bounded_line(&mut input, &mut buffer, MAX).unwrap(),
            Some(false)
        );
        assert_eq!(buffer, b"last");
        buffer.clear();
        assert_eq!(
            read_bounded_line(&mut input, &mut buffer, MAX).unwrap(),
            None
        );
    }

    #[test]
    fn the_reader_says_which_lines_were_cut() {
        let exact = "y".repeat(8);
        let text = format!("{exact}\n{exact}z\nok");
        let mut reader = LineReader::new(io::Cursor::new(text.into_bytes()), 8);
        let mut seen = Vec::new();
        while let Some(line) = reader.next_line() {
            seen.push((line, reader.last_line_was_cut()));
        }
        let expected = [
            (exact.clone(), false),
            (exact, true),
            ("ok".to_string(), false),
        ];
        assert_eq!(seen, expected);
    }

    #[test]
    fn lines_are_decoded_lossily() {
        let input = io::Cursor::new(b"go\n\xff\xfeok\n\nend".to_vec());
        let lines: Vec<String> = LineReader::new(input, usize::MAX).collect();
        assert_eq!(lines, ["go", "\u{fffd}\u{fffd}ok", "", "end"]);
    }
}
