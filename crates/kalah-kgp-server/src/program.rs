//! Programs the server starts itself, one process a move, as KWARC's kgpc runs an agent: the
//! board goes to the program's standard input as one line of numbers, `M S N s1 … sM n1 … nM`
//! (houses a side, the mover's store, the other store, the mover's houses, the other side's
//! houses, the mover always South), and the program writes houses counted from 0 to its standard
//! output, as many as it likes: the last legal one counts. The turn ends when the program exits
//! or its time is up, when it is killed; a program that wrote no legal move gets a random one, as
//! go-kgp plays for an agent that sent none. Words that are not numbers, and illegal houses, are
//! skipped, as kgpc skips them.

use std::process::Stdio;
use std::time::Duration;

use kalah_rules::{Move, Position, Rules};
use rand::seq::SliceRandom;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::Command;

use crate::store::AgentId;

/// A program: its name in the database and its command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// Its agent's row.
    pub id: AgentId,
    /// Its name: the command line as given.
    pub name: String,
    /// The program and its arguments.
    pub argv: Vec<String>,
}

/// How a program's turn went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chosen {
    /// The move played.
    pub mv: Move,
    /// `program` when the program chose it, `random` when it chose none.
    pub how: &'static str,
    /// What went wrong, for the log: the program could not start, or wrote nothing legal.
    pub trouble: Option<String>,
}

/// Writes the board as kgpc passes it: the mover's side as South.
pub fn board_line(position: &Position) -> String {
    let me = position.mover();
    let houses = usize::from(position.houses());
    let mut words = vec![houses.to_string(), position.store(me).to_string(), position.store(!me).to_string()];
    for side in [me, !me] {
        words.extend((0..houses).map(|i| position.house(side, i).to_string()));
    }
    words.join(" ")
}

/// Returns the last word of `output` that is a legal house (counted from 0) in `position`.
pub fn last_legal(output: &str, position: &Position) -> Option<Move> {
    let legal: Vec<Move> = position.legal_moves().collect();
    output
        .split_whitespace()
        .filter_map(|word| word.parse::<usize>().ok())
        .filter(|&index| index < usize::from(position.houses()))
        .map(Move::from_index)
        .rfind(|mv| legal.contains(mv))
}

impl Program {
    /// Runs the program on `position` for at most `time` and returns its move.
    pub async fn choose(&self, position: Position, _rules: Rules, time: Duration) -> Chosen {
        let (output, trouble) = match self.run(&board_line(&position), time).await {
            Ok(output) => (output, None),
            Err(error) => (String::new(), Some(format!("{}: {error}", self.name))),
        };
        match last_legal(&output, &position) {
            Some(mv) => Chosen { mv, how: "program", trouble },
            None => {
                let moves: Vec<Move> = position.legal_moves().collect();
                let mv = *moves.choose(&mut rand::thread_rng()).expect("a position with a move");
                let trouble = trouble.or_else(|| {
                    Some(format!(
                        "{} wrote no legal move for {:?}: a random move was played",
                        self.name,
                        board_line(&position)
                    ))
                });
                Chosen { mv, how: "random", trouble }
            }
        }
    }

    /// Starts the program, gives it `board`, and returns what it wrote until it exited or `time`
    /// ran out (then it is killed).
    async fn run(&self, board: &str, time: Duration) -> std::io::Result<String> {
        let (program, args) = self.argv.split_first().ok_or_else(|| std::io::Error::other("an empty command"))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()?;
        let mut stdin = child.stdin.take().expect("piped");
        let mut stdout = child.stdout.take().expect("piped");
        let line = format!("{board}\n");
        let mut output = Vec::new();
        let talk = async {
            // A program that never reads its input must still be able to answer.
            let _ = stdin.write_all(line.as_bytes()).await;
            drop(stdin);
            stdout.read_to_end(&mut output).await
        };
        // Whatever it wrote before its time ran out counts; then it is killed.
        let _ = tokio::time::timeout(time, talk).await;
        let _ = child.start_kill();
        let _ = child.wait().await;
        Ok(String::from_utf8_lossy(&output).into_owned())
    }
}

/// Splits a command line into words: spaces separate, single or double quotes keep spaces
/// within a word, a backslash keeps the next character.
pub fn split_command(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') | (None, '\\') => {
                let next = chars.next().ok_or_else(|| format!("{line:?} ends in a backslash"))?;
                word.get_or_insert_with(String::new).push(next);
            }
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    if quote.is_some() {
        return Err(format!("{line:?} has an unclosed quote"));
    }
    words.extend(word);
    if words.is_empty() {
        return Err("an empty command: give the program and its arguments, e.g. \"python3 agent.py\"".into());
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_board_goes_as_kgpc_writes_it_the_mover_as_south() {
        let rules = Rules::preset("kgp", 3, 3).unwrap();
        let position: Position = "2,4,5:0/6,7,8:1/N".parse().unwrap();
        // North moves: its houses and store come first.
        assert_eq!(board_line(&position), "3 1 0 6 7 8 2 4 5");
        let start = Position::start(&rules);
        assert_eq!(board_line(&start), "3 0 0 3 3 3 3 3 3");
    }

    #[test]
    fn the_last_legal_house_counts_and_other_words_are_skipped() {
        let position: Position = "0,4,5:0/6,7,8:1/S".parse().unwrap();
        assert_eq!(last_legal("1 2 x 0 7", &position), Some(Move::from_index(2)));
        assert_eq!(last_legal("0 -1 3", &position), None);
        assert_eq!(last_legal("", &position), None);
    }

    #[test]
    fn command_lines_split_into_words_with_quotes() {
        assert_eq!(split_command("python3 agent.py --depth 4").unwrap(), ["python3", "agent.py", "--depth", "4"]);
        assert_eq!(split_command("'my agent' \"a b\" c\\ d ''").unwrap(), ["my agent", "a b", "c d", ""]);
        assert!(split_command("a 'b").unwrap_err().contains("unclosed quote"));
        assert!(split_command("  ").unwrap_err().contains("empty command"));
    }

    #[tokio::test]
    async fn a_program_that_goes_on_thinking_is_killed_at_its_time_and_its_last_move_counts() {
        let rules = Rules::preset("kgp", 6, 6).unwrap();
        let sleeper = Program {
            id: 1,
            name: "sleeper".into(),
            argv: ["sh", "-c", "echo 9; echo 2; exec sleep 600"].map(String::from).to_vec(),
        };
        // Long by construction: the program never ends by itself, so only the kill ends the turn.
        let chosen = sleeper.choose(Position::start(&rules), rules, Duration::from_secs(3)).await;
        assert_eq!((chosen.mv, chosen.how, chosen.trouble), (Move::from_index(2), "program", None));
        let missing = Program { id: 2, name: "missing".into(), argv: vec!["/nonexistent/agent".into()] };
        let chosen = missing.choose(Position::start(&rules), rules, Duration::from_secs(3)).await;
        assert_eq!(chosen.how, "random");
        assert!(chosen.trouble.unwrap().starts_with("missing: "));
    }
}
