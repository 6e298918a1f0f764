//! Reading the GUI's input one line at a time. Invalid UTF-8 is replaced,
//! never fatal, and a line may be cut at a length limit, so no input can
//! panic the engine or make it hold an unbounded line in memory.

use std::io::{self, BufRead};

/// Lines of a [`BufRead`], each without its `\n` and lossily decoded.
#[derive(Debug)]
pub struct LineReader<R> {
    input: R,
    buffer: Vec<u8>,
    max_bytes: usize,
}

impl<R: BufRead> LineReader<R> {
    /// A reader that keeps at most `max_bytes` of each line (the rest of a
    /// longer line is read and dropped).
    pub fn new(input: R, max_bytes: usize) -> Self {
        Self {
            input,
            buffer: Vec::new(),
            max_bytes,
        }
    }

    /// The next line, or `None` at the end of input (or on a read error,
    /// which ends the connection the same way).
    pub fn next_line(&mut self) -> Option<String> {
        self.buffer.clear();
        match read_bounded_line(&mut self.input, &mut self.buffer, self.max_bytes) {
            Ok(true) => Some(String::from_utf8_lossy(&self.buffer).into_owned()),
            Ok(false) | Err(_) => None,
        }
    }
}

impl<R: BufRead> Iterator for LineReader<R> {
    type Item = String;

    fn next(&mut self) -> Option<String> {
        self.next_line()
    }
}

/// Reads one line into `buffer`, keeping at most `max_bytes` of it.
/// Returns `false` at end of input.
fn read_bounded_line(
    input: &mut impl BufRead,
    buffer: &mut Vec<u8>,
    max_bytes: usize,
) -> io::Result<bool> {
    let mut read_any = false;
    loop {
        let (used, done) = {
            let available = match input.fill_buf() {
                Ok(available) => available,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                return Ok(read_any);
            }
            read_any = true;
            let (chunk, used, done) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (&available[..i], i + 1, true),
                None => (available, available.len(), false),
            };
            let room = max_bytes.saturating_sub(buffer.len());
            buffer.extend_from_slice(&chunk[..chunk.len().min(room)]);
            (used, done)
        };
        input.consume(used);
        if done {
            return Ok(true);
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
        assert!(read_bounded_line(&mut input, &mut buffer, MAX).unwrap());
        assert_eq!(buffer, b"ping 1\r");
        buffer.clear();
        assert!(read_bounded_line(&mut input, &mut buffer, MAX).unwrap());
        assert_eq!(buffer.len(), MAX);
        buffer.clear();
        assert!(read_bounded_line(&mut input, &mut buffer, MAX).unwrap());
        assert_eq!(buffer, b"last");
        buffer.clear();
        assert!(!read_bounded_line(&mut input, &mut buffer, MAX).unwrap());
    }

    #[test]
    fn lines_are_decoded_lossily() {
        let input = io::Cursor::new(b"go\n\xff\xfeok\n\nend".to_vec());
        let lines: Vec<String> = LineReader::new(input, usize::MAX).collect();
        assert_eq!(lines, ["go", "\u{fffd}\u{fffd}ok", "", "end"]);
    }
}
