//! Solving on a cluster: the top of the game tree split into independent tasks (a manifest),
//! each task's answer (a result), and the merge that backs the answers up to the root, in the
//! manner of the checkers proof (Schaeffer et al., "Checkers is solved", Science 2007) and the
//! Awari solution (Romein and Bal, IEEE Computer 2003).
//!
//! The [`Tree`] is the root expanded a number of sowings deep (a sowing that gives an extra move
//! counts as one); a position reached along several lines is one task. The tree is fixed by the
//! rules, the root and the depth, so a manifest names only those and its tasks, and whoever
//! reads it grows the same tree again and checks that it matches.
//!
//! The rounds are MTD(f)'s null-window tests, asked of the whole tree at once: a round asks
//! whether the root is worth at least β, which every leaf that can still decide it answers as
//! "is this position worth at least t?" for its own side to move (one proof, where an exact value
//! needs several). [`Tree::merge`] backs up the bounds the answers prove (a leaf not yet answered
//! is bounded by the seeds still in play); while the root's bounds have not met, the next round
//! asks β = lower + 1 after a root that failed high, β = upper after one that failed low, and
//! the same β while the answers have not yet decided it.
//!
//! Both files are JSON lines. A manifest's first line is its header, then one line a task:
//!
//! ```text
//! {"format":"kalah-solve-manifest","version":1,"tree":"…","rules":"kalah(5,4) standard","root":"4,4,4,4,4:0/4,4,4,4,4:0/S","depth":3,"round":1,"beta":10,"leaves":104,"tasks":104}
//! {"index":0,"leaf":0,"position":"0,0,6,6,6:1/1,5,5,5,5:0/N","at_least":-9}
//! ```
//!
//! A result is one line, its fields followed by a CRC-32 of the line before the `crc` field, so
//! that a damaged, edited or foreign result is refused rather than merged:
//!
//! ```text
//! {"format":"kalah-solve-result","version":1,"tree":"…","leaf":0,"position":"…","at_least":-9,"lower":-8,"upper":18,"best":3,"nodes":1200,"seconds":0.01,"crc":"1a2b3c4d"}
//! ```

use std::collections::HashMap;
use std::fmt::Write as _;

use kalah_rules::{Move, Position, Rules};

use kalah_engine::score::{Bounds, Seeds};
use kalah_engine::search::{Engine, Limits, Options};
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The `format` field of a manifest's header.
pub const MANIFEST_FORMAT: &str = "kalah-solve-manifest";
/// The `format` field of a result.
pub const RESULT_FORMAT: &str = "kalah-solve-result";
const VERSION: u32 = 1;
/// The deepest split, in sowings: a split is a tree grown in memory and listed task by task in
/// one manifest, not a search (the engine's depth limit is [`kalah_engine::search::MAX_DEPTH`]):
/// its leaves multiply with each sowing, so a split stays shallow (and within [`MAX_TASKS`]).
pub const MAX_SPLIT_DEPTH: u32 = 16;
/// The most tasks a tree may have.
pub const MAX_TASKS: usize = 1_000_000;
/// Depth of the shallow searches that guess which child of a node will reach its threshold.
const ESTIMATE_DEPTH: u32 = 6;

/// Why a manifest or a result is refused.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ClusterError {
    /// The split is deeper than [`MAX_SPLIT_DEPTH`].
    #[error("a split {0} sowings deep is too deep: 1 to {MAX_SPLIT_DEPTH} sowings")]
    Depth(u32),
    /// The tree has more than [`MAX_TASKS`] tasks.
    #[error("a split {0} sowings deep has more than {MAX_TASKS} tasks: give a smaller depth")]
    TooManyTasks(u32),
    /// A line of a manifest is not what it should be.
    #[error("line {line} of the manifest: {why}")]
    Manifest {
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        why: String,
    },
    /// A result is damaged or belongs to another tree or task.
    #[error("{0}")]
    Result(String),
}

/// One node of the tree: its position and what lies below it.
#[derive(Clone, Debug)]
enum Node {
    /// Expanded: each legal move and the node it leads to.
    Inner(Position, Vec<(Move, usize)>),
    /// The game is over: its final store difference for the side to move.
    Over(Position, i32),
    /// A task: the number of its leaf.
    Leaf(Position, usize),
}

impl Node {
    fn position(&self) -> &Position {
        match self {
            Node::Inner(p, _) | Node::Over(p, _) | Node::Leaf(p, _) => p,
        }
    }
}

/// The top of a game tree: the root expanded `depth` sowings deep, with its leaves as tasks.
#[derive(Clone, Debug)]
pub struct Tree {
    rules: Rules,
    root: Position,
    depth: u32,
    /// Node 0 is the root.
    nodes: Vec<Node>,
    leaves: Vec<Position>,
}

/// One task of a manifest: the leaf it answers, its position, and the question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Task {
    /// The leaf's number in the tree.
    pub leaf: usize,
    /// The position asked about.
    pub position: Position,
    /// The question: is the position worth at least this many seeds to its side to move?
    pub at_least: i32,
}

impl Task {
    /// Returns the task's question for the solver ([`kalah_engine::solver::Solver::bound`]).
    pub fn question(&self) -> Seeds {
        Seeds(self.at_least)
    }

    /// Returns the answer of `bounds` proven for the task's position (the best move that proved
    /// the lower bound, if any), after `nodes` nodes and `seconds` seconds.
    pub fn answer(&self, bounds: Bounds, best: Option<Move>, nodes: u64, seconds: f64) -> Answer {
        Answer {
            leaf: self.leaf,
            at_least: self.at_least,
            lower: bounds.lower.0,
            upper: bounds.upper.0,
            best,
            nodes,
            seconds,
        }
    }
}

/// A manifest: a round of tasks of one tree.
#[derive(Clone, Debug)]
pub struct Manifest {
    /// The tree the tasks belong to.
    pub tree: Tree,
    /// The round: 1 for the plan, one more for each merge that left the value open (a round
    /// may ask the same β again, of the children its predecessor did not ask).
    pub round: u32,
    /// The round's question of the root: is it worth at least β seeds to its side to move?
    pub beta: i32,
    /// The tasks, in the order of their indexes.
    pub tasks: Vec<Task>,
}

/// A task's answer: bounds proven on its position's value, which decide its question.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Answer {
    /// The leaf answered.
    pub leaf: usize,
    /// The question answered (seeds, for the side to move).
    pub at_least: i32,
    /// The lowest value the position can have for its side to move, in seeds.
    pub lower: i32,
    /// The highest.
    pub upper: i32,
    /// A best move, when the lower bound was proven by one.
    pub best: Option<Move>,
    /// Nodes the solve searched.
    pub nodes: u64,
    /// Seconds the solve took.
    pub seconds: f64,
}

/// What the answers so far prove about the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merged {
    /// The lowest value the root can have, for its side to move, in seeds.
    pub lower: i32,
    /// The highest.
    pub upper: i32,
    /// A best move, once the value is decided.
    pub best: Option<Move>,
    /// Leaves with at least one answer.
    pub answered: usize,
}

impl Merged {
    /// Returns whether the root's value is decided.
    pub fn decided(&self) -> bool {
        self.lower == self.upper
    }
}

#[derive(Serialize, Deserialize)]
struct Header {
    format: String,
    version: u32,
    tree: String,
    rules: String,
    root: String,
    depth: u32,
    round: u32,
    beta: i32,
    leaves: usize,
    tasks: usize,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TaskLine {
    index: usize,
    leaf: usize,
    position: String,
    at_least: i32,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ResultBody {
    format: String,
    version: u32,
    tree: String,
    leaf: usize,
    position: String,
    at_least: i32,
    lower: i32,
    upper: i32,
    best: Option<u8>,
    nodes: u64,
    seconds: f64,
}

/// Where a result's checksum starts: `,"crc":"XXXXXXXX"}` ends the line.
const CRC_FIELD: &str = ",\"crc\":\"";

impl Tree {
    /// Grows the tree of `root` under `rules`, `depth` sowings deep.
    ///
    /// # Errors
    /// [`ClusterError::Depth`] for a depth of 0 or over [`MAX_SPLIT_DEPTH`], and
    /// [`ClusterError::TooManyTasks`] for a tree of more than [`MAX_TASKS`] leaves.
    pub fn grow(rules: &Rules, root: &Position, depth: u32) -> Result<Tree, ClusterError> {
        if !(1..=MAX_SPLIT_DEPTH).contains(&depth) {
            return Err(ClusterError::Depth(depth));
        }
        let mut tree = Tree { rules: *rules, root: *root, depth, nodes: Vec::new(), leaves: Vec::new() };
        let mut inner = HashMap::new();
        let mut leaves = HashMap::new();
        tree.node(root, depth, &mut inner, &mut leaves)?;
        Ok(tree)
    }

    /// Adds the node of `position` with `left` sowings to expand, or finds it; returns its number.
    fn node(
        &mut self,
        position: &Position,
        left: u32,
        inner: &mut HashMap<(Position, u32), usize>,
        leaves: &mut HashMap<Position, usize>,
    ) -> Result<usize, ClusterError> {
        if position.is_over(&self.rules) {
            let value = position.final_difference(&self.rules) * position.mover().sign();
            self.nodes.push(Node::Over(*position, value));
            return Ok(self.nodes.len() - 1);
        }
        if left == 0 {
            if let Some(&node) = leaves.get(position) {
                return Ok(node);
            }
            if self.leaves.len() == MAX_TASKS {
                return Err(ClusterError::TooManyTasks(self.depth));
            }
            self.nodes.push(Node::Leaf(*position, self.leaves.len()));
            self.leaves.push(*position);
            leaves.insert(*position, self.nodes.len() - 1);
            return Ok(self.nodes.len() - 1);
        }
        if let Some(&node) = inner.get(&(*position, left)) {
            return Ok(node);
        }
        let mut children = Vec::new();
        for mv in position.legal_moves() {
            let child = position.play_unchecked(&self.rules, mv);
            children.push((mv, self.node(&child, left - 1, inner, leaves)?));
        }
        self.nodes.push(Node::Inner(*position, children));
        inner.insert((*position, left), self.nodes.len() - 1);
        Ok(self.nodes.len() - 1)
    }

    /// Returns the rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Returns the root.
    pub fn root(&self) -> &Position {
        &self.root
    }

    /// Returns the depth of the split, in sowings.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Returns the leaves' positions, by leaf number.
    pub fn leaves(&self) -> &[Position] {
        &self.leaves
    }

    /// Returns the tree's name: a hash of its rules, root and depth, which every manifest and
    /// result of the tree carries.
    pub fn id(&self) -> String {
        format!("{:016x}", crate::checkpoint::name_hash(&format!("{}|{}|{}", self.rules, self.root, self.depth)))
    }

    /// Returns the first round's manifest: whether the root is worth at least `beta` seeds to its
    /// side to move (best an estimate of its value), asked of every leaf that can decide it.
    pub fn plan(&self, beta: i32) -> Manifest {
        let bounds = self.bounds(&[]);
        Manifest { tree: self.clone(), round: 1, beta, tasks: self.questions(&bounds, beta) }
    }

    /// The bounds of every node for its side to move, from the answers (several answers of a leaf
    /// narrow it together; a leaf with none is bounded by the seeds in play).
    fn bounds(&self, answers: &[Answer]) -> Vec<(i32, i32)> {
        let mut leaves: Vec<(i32, i32)> = self
            .leaves
            .iter()
            .map(|position| {
                let base = position.store_difference() * position.mover().sign();
                let left = i32::from(position.seeds_in_houses());
                (base - left, base + left)
            })
            .collect();
        for answer in answers {
            if let Some(leaf) = leaves.get_mut(answer.leaf) {
                *leaf = (leaf.0.max(answer.lower), leaf.1.min(answer.upper));
            }
        }
        // The nodes were pushed children first, so one pass backs the bounds up.
        let mut bounds = vec![(0, 0); self.nodes.len()];
        for (i, node) in self.nodes.iter().enumerate() {
            bounds[i] = match node {
                Node::Over(_, value) => (*value, *value),
                Node::Leaf(_, leaf) => leaves[*leaf],
                Node::Inner(position, children) => children.iter().fold((i32::MIN, i32::MIN), |(lo, hi), &(_, c)| {
                    let (clo, chi) = self.seen_from(position, c, &bounds);
                    (lo.max(clo), hi.max(chi))
                }),
            };
        }
        bounds
    }

    /// The bounds of node `child` for the side to move at `parent`.
    fn seen_from(&self, parent: &Position, child: usize, bounds: &[(i32, i32)]) -> (i32, i32) {
        let (lo, hi) = bounds[child];
        if parent.mover() == self.nodes[child].position().mover() {
            (lo, hi)
        } else {
            (-hi, -lo)
        }
    }

    /// The questions that decide whether the root is worth at least `beta`, asked as alpha-beta
    /// would ask them: below a node whose bounds do not yet decide its threshold t, a node
    /// expected to reach t (by a shallow search) needs one child that does, so only its most
    /// promising child that can is asked; any other needs all its children below t, so every
    /// child that can still reach t is asked. A round that guessed wrong leaves the node open,
    /// and the next round asks its next child.
    fn questions(&self, bounds: &[(i32, i32)], beta: i32) -> Vec<Task> {
        let engine = Engine::new(Options { table_bytes: 1 << 20, ..Options::default() });
        let estimate = |position: &Position| {
            let info = engine.search(position, &self.rules, Limits::depth(ESTIMATE_DEPTH), None, |_| {});
            info.score.hundredths()
        };
        let mut tasks = Vec::new();
        let mut seen = vec![false; self.nodes.len()];
        let mut stack = vec![(self.nodes.len() - 1, beta)];
        while let Some((i, t)) = stack.pop() {
            let (lo, hi) = bounds[i];
            if std::mem::replace(&mut seen[i], true) || lo >= t || hi < t {
                continue;
            }
            match &self.nodes[i] {
                Node::Leaf(position, leaf) => tasks.push(Task { leaf: *leaf, position: *position, at_least: t }),
                Node::Inner(position, children) => {
                    let mut open = Vec::new();
                    for &(_, c) in children {
                        let (clo, chi) = self.seen_from(position, c, bounds);
                        if clo < t && t <= chi {
                            let same = position.mover() == self.nodes[c].position().mover();
                            let guess = estimate(self.nodes[c].position());
                            // Worth at least t to this side ⟺ worth less than 1 - t to the other.
                            let (tc, guess) = if same { (t, guess) } else { (1 - t, -guess) };
                            open.push((c, tc, guess));
                        }
                    }
                    let best = open.iter().map(|&(_, _, guess)| guess).max().unwrap_or(i32::MIN);
                    if best >= Seeds(t).hundredths() {
                        open.retain(|&(_, _, guess)| guess == best);
                        open.truncate(1);
                    }
                    stack.extend(open.into_iter().rev().map(|(c, tc, _)| (c, tc)));
                }
                Node::Over(..) => {}
            }
        }
        tasks.sort_unstable_by_key(|task| task.leaf);
        tasks
    }

    /// Backs `answers` up to the root.
    pub fn merge(&self, answers: &[Answer]) -> Merged {
        let bounds = self.bounds(answers);
        let root = self.nodes.len() - 1;
        let (lower, upper) = bounds[root];
        let best = match &self.nodes[root] {
            // A child whose lower bound reaches the value is worth it.
            Node::Inner(position, children) if lower == upper => {
                children.iter().find(|&&(_, c)| self.seen_from(position, c, &bounds).0 == lower).map(|&(mv, _)| mv)
            }
            _ => None,
        };
        let mut answered: Vec<usize> = answers.iter().map(|a| a.leaf).collect();
        answered.sort_unstable();
        answered.dedup();
        Merged { lower, upper, best, answered: answered.len() }
    }

    /// Reads a result's text, refusing one that is damaged or not of a leaf of this tree.
    ///
    /// # Errors
    /// [`ClusterError::Result`], saying what is wrong.
    pub fn read_answer(&self, text: &str) -> Result<Answer, ClusterError> {
        let refuse = |why: String| ClusterError::Result(why);
        let text = text.strip_suffix('\n').unwrap_or(text);
        let not_result = || refuse("not a kalah result (it does not end in its checksum)".to_string());
        let at = text.rfind(CRC_FIELD).ok_or_else(not_result)?;
        let crc = text[at + CRC_FIELD.len()..].strip_suffix("\"}").ok_or_else(not_result)?;
        let body_text = format!("{}}}", &text[..at]);
        if crc != format!("{:08x}", crc32fast::hash(body_text.as_bytes())) {
            return Err(refuse("damaged: its checksum does not match its contents".to_string()));
        }
        let body: ResultBody =
            serde_json::from_str(&body_text).map_err(|e| refuse(format!("not a kalah result ({})", one_line(&e))))?;
        if body.format != RESULT_FORMAT || body.version != VERSION {
            return Err(refuse(format!(
                "not a kalah result of version {VERSION} (format {:?}, version {})",
                body.format, body.version
            )));
        }
        if body.tree != self.id() {
            return Err(refuse(format!("a result of another tree ({}, this one is {})", body.tree, self.id())));
        }
        let Some(position) = self.leaves.get(body.leaf) else {
            return Err(refuse(format!("leaf {} is not in this tree of {} leaves", body.leaf, self.leaves.len())));
        };
        if body.position != position.to_string() {
            return Err(refuse(format!("it answers {}, not leaf {}'s position {position}", body.position, body.leaf)));
        }
        let left = i32::from(position.seeds_in_houses());
        let base = position.store_difference() * position.mover().sign();
        let decides = body.lower >= body.at_least || body.upper < body.at_least;
        if body.lower > body.upper || body.lower < base - left || body.upper > base + left || !decides {
            return Err(refuse(format!(
                "bounds {} to {} are impossible at leaf {}",
                body.lower, body.upper, body.leaf
            )));
        }
        let best = match body.best {
            None => None,
            Some(number) => match Move::from_number(u32::from(number)) {
                Some(mv) if position.legal_moves().contains(mv) => Some(mv),
                _ => return Err(refuse(format!("best move {number} is not legal at leaf {}", body.leaf))),
            },
        };
        Ok(Answer {
            leaf: body.leaf,
            at_least: body.at_least,
            lower: body.lower,
            upper: body.upper,
            best,
            nodes: body.nodes,
            seconds: body.seconds,
        })
    }

    /// Writes `answer` as a result of this tree: one line, ending in a line break.
    pub fn write_answer(&self, answer: &Answer) -> String {
        let body = ResultBody {
            format: RESULT_FORMAT.to_string(),
            version: VERSION,
            tree: self.id(),
            leaf: answer.leaf,
            position: self.leaves[answer.leaf].to_string(),
            at_least: answer.at_least,
            lower: answer.lower,
            upper: answer.upper,
            best: answer.best.map(Move::number),
            nodes: answer.nodes,
            seconds: answer.seconds,
        };
        let body_text = serde_json::to_string(&body).expect("a result serialises");
        let crc = crc32fast::hash(body_text.as_bytes());
        format!("{}{CRC_FIELD}{crc:08x}\"}}\n", &body_text[..body_text.len() - 1])
    }
}

/// The first line of a serde error (its messages may carry a line break).
fn one_line(error: &serde_json::Error) -> String {
    error.to_string().lines().next().unwrap_or_default().to_string()
}

impl Manifest {
    /// Returns the next round's manifest after `answers`, or `None` once the root's value is
    /// decided. A round whose question is not yet answered is asked again (its unanswered tasks).
    pub fn next(&self, answers: &[Answer]) -> Option<Manifest> {
        let bounds = self.tree.bounds(answers);
        let (lower, upper) = bounds[bounds.len() - 1];
        if lower == upper {
            return None;
        }
        let beta = if lower >= self.beta {
            lower + 1
        } else if upper < self.beta {
            upper
        } else {
            self.beta
        };
        Some(Manifest {
            tree: self.tree.clone(),
            round: self.round + 1,
            beta,
            tasks: self.tree.questions(&bounds, beta),
        })
    }

    /// Writes the manifest as JSON lines.
    pub fn write(&self) -> String {
        let header = Header {
            format: MANIFEST_FORMAT.to_string(),
            version: VERSION,
            tree: self.tree.id(),
            rules: self.tree.rules.to_string(),
            root: self.tree.root.to_string(),
            depth: self.tree.depth,
            round: self.round,
            beta: self.beta,
            leaves: self.tree.leaves.len(),
            tasks: self.tasks.len(),
        };
        let mut text = serde_json::to_string(&header).expect("a header serialises");
        text.push('\n');
        for (index, task) in self.tasks.iter().enumerate() {
            let line =
                TaskLine { index, leaf: task.leaf, position: task.position.to_string(), at_least: task.at_least };
            let _ = writeln!(text, "{}", serde_json::to_string(&line).expect("a task serialises"));
        }
        text
    }

    /// Reads a manifest, growing its tree again and checking every task against it.
    ///
    /// # Errors
    /// [`ClusterError::Manifest`] naming the first line that is wrong, or the tree's errors.
    pub fn read(text: &str) -> Result<Manifest, ClusterError> {
        let wrong = |line: usize, why: String| ClusterError::Manifest { line, why };
        let mut lines = text.lines();
        let header: Header = serde_json::from_str(lines.next().unwrap_or_default())
            .map_err(|e| wrong(1, format!("not a kalah manifest header ({})", one_line(&e))))?;
        if header.format != MANIFEST_FORMAT || header.version != VERSION {
            return Err(wrong(1, format!("not a kalah manifest of version {VERSION}")));
        }
        let rules: Rules = header.rules.parse().map_err(|e| wrong(1, format!("rules: {e}")))?;
        let root = Position::parse(&header.root, &rules).map_err(|e| wrong(1, format!("root: {e}")))?;
        let tree = Tree::grow(&rules, &root, header.depth)?;
        if tree.id() != header.tree || tree.leaves.len() != header.leaves {
            return Err(wrong(1, format!("its tree is not the one its rules, root and depth grow ({})", tree.id())));
        }
        let mut tasks = Vec::new();
        for (i, text) in lines.enumerate() {
            let line = i + 2;
            let task: TaskLine =
                serde_json::from_str(text).map_err(|e| wrong(line, format!("not a task ({})", one_line(&e))))?;
            if task.index != i {
                return Err(wrong(line, format!("task {} where task {i} should be", task.index)));
            }
            match tree.leaves.get(task.leaf) {
                Some(position) if position.to_string() == task.position => {
                    tasks.push(Task { leaf: task.leaf, position: *position, at_least: task.at_least });
                }
                _ => return Err(wrong(line, format!("leaf {} of this tree is not {}", task.leaf, task.position))),
            }
        }
        if tasks.len() != header.tasks {
            return Err(wrong(
                tasks.len() + 1,
                format!("{} tasks where the header says {}", tasks.len(), header.tasks),
            ));
        }
        Ok(Manifest { tree, round: header.round.max(1), beta: header.beta, tasks })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kalah_engine::search::Options;
    use kalah_engine::solver::Solver;

    fn solver() -> Solver {
        Solver::new(Options { table_bytes: 16 << 20, ..Options::default() })
    }

    /// Answers `tasks` as `kalah solve task` does.
    fn answer(tasks: &[Task], rules: &Rules) -> Vec<Answer> {
        let solver = solver();
        tasks
            .iter()
            .map(|task| {
                let (info, bounds) =
                    solver.bound(&task.position, rules, None, task.question(), Limits::default(), None).unwrap();
                task.answer(bounds, info.best, info.nodes, 0.0)
            })
            .collect()
    }

    /// Runs the rounds, answering every `share`-th task of each, until the root is decided.
    fn rounds(tree: &Tree, beta: i32, share: usize) -> (Merged, u32) {
        let mut manifest = tree.plan(beta);
        let mut answers = Vec::new();
        for _ in 0..200 {
            let some: Vec<Task> = manifest.tasks.iter().step_by(share).copied().collect();
            answers.extend(answer(&some, tree.rules()));
            match manifest.next(&answers) {
                None => return (tree.merge(&answers), manifest.round),
                Some(next) => {
                    assert!(!next.tasks.is_empty(), "an undecided root has questions to ask");
                    manifest = next;
                }
            }
        }
        panic!("the rounds did not decide the root");
    }

    #[test]
    fn the_merged_value_is_the_solved_value() {
        for (m, n, depth, beta) in [(4, 3, 3, 0), (3, 3, 1, 5), (4, 4, 2, -3), (3, 2, 6, 4), (5, 2, 2, 2)] {
            let rules = Rules::standard(m, n).unwrap();
            let root = Position::start(&rules);
            let tree = Tree::grow(&rules, &root, depth).unwrap();
            let solve = |position: &Position| {
                let info = solver().solve(position, &rules, None, Limits::default(), None, |_, _| {}).unwrap();
                info.score.whole_seeds().0
            };
            let exact = solve(&root);
            for share in [1, 2] {
                let (merged, _) = rounds(&tree, beta, share);
                assert!(merged.decided(), "Kalah({m},{n})");
                assert_eq!(merged.lower, exact, "Kalah({m},{n}) at depth {depth}, β {beta}");
                let best = merged.best.expect("a best move");
                let after = root.play_unchecked(&rules, best);
                let value = solve(&after);
                let value = if after.mover() == root.mover() { value } else { -value };
                assert_eq!(value, exact, "the best move keeps the value");
            }
        }
    }

    #[test]
    fn manifests_and_results_round_trip_and_damage_is_refused() {
        let rules = Rules::standard(4, 3).unwrap();
        let tree = Tree::grow(&rules, &Position::start(&rules), 2).unwrap();
        let manifest = tree.plan(6);
        let read = Manifest::read(&manifest.write()).unwrap();
        assert_eq!(read.tasks, manifest.tasks);
        assert_eq!(read.write(), manifest.write());
        let answer = answer(&manifest.tasks[1..2], &rules)[0];
        let text = tree.write_answer(&answer);
        assert_eq!(tree.read_answer(&text).unwrap(), answer);
        // Damage: an edited bound, a cut line, another tree's result.
        let edited =
            text.replacen(&format!("\"lower\":{}", answer.lower), &format!("\"lower\":{}", answer.lower + 1), 1);
        assert!(tree.read_answer(&edited).unwrap_err().to_string().contains("checksum"));
        assert!(tree.read_answer(&text[..text.len() / 2]).unwrap_err().to_string().starts_with("not a kalah result"));
        let other = Tree::grow(&rules, &Position::start(&rules), 3).unwrap();
        assert!(other.read_answer(&text).unwrap_err().to_string().contains("another tree"));
        let errors = [
            Manifest::read("").unwrap_err(),
            Manifest::read(&manifest.write().replacen("\"leaf\":1", "\"leaf\":2", 1)).unwrap_err(),
            Manifest::read(&manifest.write().replacen("\"depth\":2", "\"depth\":3", 1)).unwrap_err(),
        ];
        for error in errors {
            assert!(!error.to_string().contains('\n'), "{error}");
        }
        assert_eq!(Tree::grow(&rules, &Position::start(&rules), 0).unwrap_err(), ClusterError::Depth(0));
    }
}
