//! Parsing of GUI → engine lines into [`Command`]s.
//!
//! CECP commands are a word followed by arguments, case-sensitive, one per
//! line. Parsing is pure: it checks the shape of the arguments (numbers,
//! time formats) but knows nothing of the game state, so every problem
//! found here becomes an `Error (<reason>): <line>` reply and nothing else.

use core::fmt;

use super::time_control::{TimeControl, parse_level, parse_seconds};

/// One command from the GUI.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `xboard`: enter CECP mode (no reply needed).
    Xboard,
    /// `protover N`: the protocol version; version 2 and later get the
    /// `feature` line.
    Protover(u32),
    /// `accepted FEATURE` / `rejected FEATURE`: the GUI's answers to our
    /// features; nothing to do.
    FeatureReply,
    /// `new`: standard start position, engine plays Black, clocks reset.
    New,
    /// `variant NAME`.
    Variant(String),
    /// `quit`.
    Quit,
    /// `force`: play neither side.
    Force,
    /// `go`: play the side to move and start thinking.
    Go,
    /// `playother`: play the side not to move.
    PlayOther,
    /// `level MPS BASE INC` or `st TIME`: a new time control.
    TimeControl(TimeControl),
    /// `sd DEPTH`: depth limit.
    Depth(i32),
    /// `time N`: the engine's clock, converted to milliseconds (a
    /// negative clock counts as zero).
    Time(u64),
    /// `otim N`: the opponent's clock in milliseconds.
    OpponentTime(u64),
    /// `usermove MOVE`, or a move sent without the command word.
    UserMove(String),
    /// `?`: move now.
    MoveNow,
    /// `ping N`: answer `pong N` (the token is echoed as given).
    Ping(String),
    /// `draw`: the opponent offers a draw.
    Draw,
    /// `result RESULT {COMMENT}`: the game is over.
    Result(String),
    /// `setboard FEN`.
    SetBoard(String),
    /// `undo`: take back one move.
    Undo,
    /// `remove`: take back two moves.
    Remove,
    /// `hard` (`true`) / `easy` (`false`): pondering on or off.
    Ponder(bool),
    /// `post` (`true`) / `nopost` (`false`): thinking output on or off.
    Post(bool),
    /// `analyze`: enter analysis mode.
    Analyze,
    /// `exit`: leave analysis mode.
    Exit,
    /// `.`: analysis status request.
    Status,
    /// `hint`: the GUI asks for a suggested move.
    Hint,
    /// `memory N`: hash memory in MiB.
    Memory(u64),
    /// `cores N`: CPU cores allowed.
    Cores(u64),
    /// `option NAME[=VALUE]`: an engine option declared in the feature line.
    EngineOption {
        /// Option name.
        name: String,
        /// Value, absent for buttons.
        value: Option<String>,
    },
    /// `egtpath KIND PATH`: where the endgame tables of a kind are
    /// (Kiln reads `syzygy` tables).
    EgtPath {
        /// The kind of tables (`syzygy`, `nalimov`, …).
        kind: String,
        /// Their directories, as `SyzygyPath` takes them.
        path: String,
    },
    /// Commands accepted and ignored: `random`, `computer`, `name`,
    /// `rating`, `ics`, `white`, `black`, `bk` and the like.
    Ignored,
}

/// Why a line is not a command this engine understands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// Blank line: ignore silently.
    Empty,
    /// The first word is not a command.
    Unknown,
    /// A required argument is missing.
    MissingArgument(&'static str),
    /// An argument could not be read.
    BadArgument(&'static str),
    /// A command this engine declared it does not support (`edit`, `nps`).
    Unsupported,
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Empty => f.write_str("empty line"),
            CommandError::Unknown => f.write_str("unknown command"),
            CommandError::MissingArgument(what) => write!(f, "missing {what}"),
            CommandError::BadArgument(what) => write!(f, "bad {what}"),
            CommandError::Unsupported => f.write_str("unsupported command"),
        }
    }
}

/// Parses one line (without its newline; surrounding blanks and `\r` are
/// ignored).
pub fn parse(line: &str) -> Result<Command, CommandError> {
    let line = line.trim();
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((word, rest)) => (word, rest.trim()),
        None => (line, ""),
    };
    let first_arg = rest.split_whitespace().next();
    match word {
        "" => Err(CommandError::Empty),
        "xboard" => Ok(Command::Xboard),
        "protover" => {
            let version = number(first_arg, "protocol version")?;
            Ok(Command::Protover(
                u32::try_from(version).unwrap_or(u32::MAX),
            ))
        }
        "accepted" | "rejected" => Ok(Command::FeatureReply),
        "new" => Ok(Command::New),
        "variant" => first_arg
            .map(|v| Command::Variant(v.to_string()))
            .ok_or(CommandError::MissingArgument("variant name")),
        "quit" => Ok(Command::Quit),
        "force" => Ok(Command::Force),
        "go" => Ok(Command::Go),
        "playother" => Ok(Command::PlayOther),
        "level" => parse_level(rest).map(Command::TimeControl),
        "st" => {
            let text = first_arg.ok_or(CommandError::MissingArgument("seconds per move"))?;
            let ms = parse_seconds(text).ok_or(CommandError::BadArgument("seconds per move"))?;
            Ok(Command::TimeControl(TimeControl::MoveTime(ms)))
        }
        "sd" => {
            let depth = number(first_arg, "depth")?;
            Ok(Command::Depth(i32::try_from(depth).unwrap_or(i32::MAX)))
        }
        "time" => centiseconds(first_arg).map(Command::Time),
        "otim" => centiseconds(first_arg).map(Command::OpponentTime),
        "usermove" => first_arg
            .map(|m| Command::UserMove(m.to_string()))
            .ok_or(CommandError::MissingArgument("move")),
        "?" => Ok(Command::MoveNow),
        "ping" => first_arg
            .map(|n| Command::Ping(n.to_string()))
            .ok_or(CommandError::MissingArgument("ping number")),
        "draw" => Ok(Command::Draw),
        "result" => Ok(Command::Result(rest.to_string())),
        "setboard" if rest.is_empty() => Err(CommandError::MissingArgument("FEN")),
        "setboard" => Ok(Command::SetBoard(rest.to_string())),
        "undo" => Ok(Command::Undo),
        "remove" => Ok(Command::Remove),
        "hard" => Ok(Command::Ponder(true)),
        "easy" => Ok(Command::Ponder(false)),
        "post" => Ok(Command::Post(true)),
        "nopost" => Ok(Command::Post(false)),
        "analyze" => Ok(Command::Analyze),
        "exit" => Ok(Command::Exit),
        "." => Ok(Command::Status),
        "hint" => Ok(Command::Hint),
        "memory" => number(first_arg, "memory size").map(Command::Memory),
        "cores" => number(first_arg, "number of cores").map(Command::Cores),
        "option" => {
            if rest.is_empty() {
                return Err(CommandError::MissingArgument("option name"));
            }
            let (name, value) = match rest.split_once('=') {
                Some((name, value)) => (name.trim(), Some(value.trim().to_string())),
                None => (rest, None),
            };
            Ok(Command::EngineOption {
                name: name.to_string(),
                value,
            })
        }
        "egtpath" => match rest.split_once(char::is_whitespace) {
            Some((kind, path)) => Ok(Command::EgtPath {
                kind: kind.to_string(),
                path: path.trim().to_string(),
            }),
            None => Err(CommandError::MissingArgument("table kind and path")),
        },
        "random" | "computer" | "name" | "rating" | "ics" | "white" | "black" | "bk" | "pause"
        | "resume" | "include" | "exclude" => Ok(Command::Ignored),
        "edit" | "nps" => Err(CommandError::Unsupported),
        _ if looks_like_move(word) && rest.is_empty() => Ok(Command::UserMove(word.to_string())),
        _ => Err(CommandError::Unknown),
    }
}

/// A non-negative integer argument.
fn number(arg: Option<&str>, what: &'static str) -> Result<u64, CommandError> {
    let text = arg.ok_or(CommandError::MissingArgument(what))?;
    text.parse::<u64>()
        .map_err(|_| CommandError::BadArgument(what))
}

/// A clock reading in centiseconds, returned in milliseconds. XBoard sends
/// negative readings once a flag has fallen; they mean "no time left".
fn centiseconds(arg: Option<&str>) -> Result<u64, CommandError> {
    let text = arg.ok_or(CommandError::MissingArgument("clock reading"))?;
    let cs = text
        .parse::<i64>()
        .map_err(|_| CommandError::BadArgument("clock reading"))?;
    Ok(u64::try_from(cs).unwrap_or(0).saturating_mul(10))
}

/// Whether a bare word is meant as a move (protocol version 1 sends moves
/// without `usermove`): coordinate notation or FRC castling.
fn looks_like_move(word: &str) -> bool {
    let b = word.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    matches!(word, "O-O" | "O-O-O" | "0-0" | "0-0-0")
        || ((b.len() == 4 || b.len() == 5) && square(b[0], b[1]) && square(b[2], b[3]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_commands() {
        assert_eq!(parse("xboard"), Ok(Command::Xboard));
        assert_eq!(parse("  new \r"), Ok(Command::New));
        assert_eq!(parse("protover 2"), Ok(Command::Protover(2)));
        assert_eq!(parse("ping 17"), Ok(Command::Ping("17".into())));
        assert_eq!(parse("hard"), Ok(Command::Ponder(true)));
        assert_eq!(parse("nopost"), Ok(Command::Post(false)));
        assert_eq!(parse("."), Ok(Command::Status));
        assert_eq!(parse("?"), Ok(Command::MoveNow));
        assert_eq!(parse("rating 2600 1500"), Ok(Command::Ignored));
        assert_eq!(parse(""), Err(CommandError::Empty));
    }

    #[test]
    fn arguments() {
        assert_eq!(parse("time 1234"), Ok(Command::Time(12_340)));
        assert_eq!(parse("otim -50"), Ok(Command::OpponentTime(0)));
        assert_eq!(parse("sd 7"), Ok(Command::Depth(7)));
        assert_eq!(parse("memory 64"), Ok(Command::Memory(64)));
        assert_eq!(
            parse("egtpath syzygy /tb/345"),
            Ok(Command::EgtPath {
                kind: "syzygy".into(),
                path: "/tb/345".into()
            })
        );
        assert_eq!(
            parse("st 2.5"),
            Ok(Command::TimeControl(TimeControl::MoveTime(2_500)))
        );
        assert_eq!(
            parse("setboard 8/8/8/8/8/8/8/K1k5 w - - 0 1"),
            Ok(Command::SetBoard("8/8/8/8/8/8/8/K1k5 w - - 0 1".into()))
        );
        assert_eq!(
            parse("option Resign=1"),
            Ok(Command::EngineOption {
                name: "Resign".into(),
                value: Some("1".into())
            })
        );
        assert_eq!(parse("usermove e2e4"), Ok(Command::UserMove("e2e4".into())));
        assert_eq!(parse("e7e8q"), Ok(Command::UserMove("e7e8q".into())));
        assert_eq!(parse("O-O-O"), Ok(Command::UserMove("O-O-O".into())));
    }

    #[test]
    fn errors() {
        assert_eq!(parse("frobnicate"), Err(CommandError::Unknown));
        assert_eq!(parse("e2e9"), Err(CommandError::Unknown));
        assert_eq!(
            parse("time"),
            Err(CommandError::MissingArgument("clock reading"))
        );
        assert_eq!(
            parse("time soon"),
            Err(CommandError::BadArgument("clock reading"))
        );
        assert_eq!(parse("sd -1"), Err(CommandError::BadArgument("depth")));
        assert_eq!(
            parse("usermove"),
            Err(CommandError::MissingArgument("move"))
        );
        assert_eq!(parse("setboard"), Err(CommandError::MissingArgument("FEN")));
        assert_eq!(parse("edit"), Err(CommandError::Unsupported));
        assert!(parse("level 40").is_err());
    }
}
