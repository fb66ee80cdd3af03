//! API tests: every endpoint through the router, bad requests, concurrent games, expiry, and
//! searches stopped by an undo or a close.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use kalah_rules::Record;
use kalah_table::Refused;
use serde_json::{json, Value};
use tower::ServiceExt;

use crate::{router, App, Config};

/// A server whose engine thinks `ms` milliseconds at most, with room for `max_games`.
fn server(ms: u64, max_games: usize) -> (Router, Arc<App>) {
    let config = Config {
        engine_time: Duration::from_millis(ms),
        searches: 2,
        table_bytes: 1 << 20,
        databases: None,
        max_games,
        idle: Duration::from_secs(600),
        ..Config::default()
    };
    let app = Arc::new(App::new(&config).unwrap());
    (router(Arc::clone(&app)), app)
}

/// The creators' tokens of the games against the engine or at one page that [`call`] started,
/// by game id: `call` acts as the game's creator, as the page that started it does.
static OWNERS: Mutex<Option<HashMap<String, String>>> = Mutex::new(None);

/// Returns the creator's token of game `id` kept by [`call`], if it started it.
fn owner(id: &str) -> Option<String> {
    OWNERS.lock().unwrap().as_ref().and_then(|owners| owners.get(id).cloned())
}

/// Sends a request as the creator of the game it names (see [`OWNERS`]) and returns the status
/// and the body (JSON, or a string for other bodies).
async fn call(app: &Router, method: &str, uri: &str, body: &str) -> (StatusCode, Value) {
    let mut request = Request::builder().method(method).uri(uri).header("content-type", "application/json");
    let game = uri.strip_prefix("/api/games/").map(|rest| rest.split(['/', '?']).next().unwrap_or(""));
    if let Some(token) = game.and_then(owner) {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    let request = request.body(Body::from(body.to_string())).expect("a well-formed request");
    let response = app.clone().oneshot(request).await.expect("the router always answers");
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await.expect("a body");
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
    if let (StatusCode::CREATED, Some(token), Some(id)) = (status, value["token"].as_str(), value["id"].as_str()) {
        if value["friends"] == false {
            OWNERS.lock().unwrap().get_or_insert_with(HashMap::new).insert(id.to_string(), token.to_string());
        }
    }
    (status, value)
}

/// Sends a request that must succeed with `expected` and returns the body.
async fn ok(app: &Router, method: &str, uri: &str, body: &str, expected: StatusCode) -> Value {
    let (status, value) = call(app, method, uri, body).await;
    assert_eq!(status, expected, "{method} {uri} {body}: {value}");
    value
}

async fn create(app: &Router, request: Value) -> Value {
    ok(app, "POST", "/api/games", &request.to_string(), StatusCode::CREATED).await
}

/// Asserts a refusal: the status, and a one-line message that contains `says`.
async fn refused(app: &Router, method: &str, uri: &str, body: &str, status: StatusCode, says: &str) {
    let (got, value) = call(app, method, uri, body).await;
    assert_eq!(got, status, "{method} {uri} {body}: {value}");
    let message = value["error"].as_str().unwrap_or_else(|| panic!("no error message in {value}"));
    assert!(message.contains(says), "{method} {uri} {body}: {message:?} does not say {says:?}");
    assert!(!message.contains('\n'), "one line: {message}");
}

fn id(state: &Value) -> String {
    state["id"].as_str().expect("a game id").to_string()
}

#[tokio::test]
async fn the_page_and_its_assets_are_served() {
    let (app, _) = server(10, 10);
    for (path, says) in [
        ("/", ">Kalah</title>"),
        // Marked as served: the page asks this server and looks for no WebAssembly module.
        ("/", "<meta name=\"kalah-backend\" content=\"server\">"),
        ("/words.js", "export function rulesName"),
        // The page's words in every language (kalah-l10n).
        ("/l10n.js", "export function t("),
        ("/fluent/index.js", "FluentBundle"),
        ("/l10n/de.ftl", "language-name = Deutsch"),
        ("/app.js", "import { connect"),
        ("/local.js", "./pkg/index.js"),
        ("/friends.js", "export function seatFor"),
        ("/searches.js", "export function setUp"),
        ("/lobby.js", "export async function setUp"),
        ("/style.css", ".board"),
    ] {
        let (status, body) = call(&app, "GET", path, "").await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(body.as_str().is_some_and(|b| b.contains(says)), "{path}");
    }
    let (status, languages) = call(&app, "GET", "/l10n/index.json", "").await;
    assert_eq!((status, &languages[1]), (StatusCode::OK, &json!({ "code": "de", "name": "Deutsch" })));
    refused(&app, "GET", "/nothing/here", "", StatusCode::NOT_FOUND, "nothing at GET /nothing/here").await;
}

#[tokio::test]
async fn variants_list_every_rule_word_and_level() {
    let (app, _) = server(10, 10);
    let v = ok(&app, "GET", "/api/variants", "", StatusCode::OK).await;
    assert_eq!(v["presets"].as_array().unwrap().len(), kalah_rules::rules::PRESETS.len());
    assert_eq!(v["capture"], json!(["standard", "empty", "none"]));
    assert_eq!(v["sowing"], json!(["single", "relay"]));
    assert_eq!(v["levels"].as_array().unwrap().len(), 5);
    let seed_on = v["presets"].as_array().unwrap().iter().find(|p| p["name"] == "seed-on").unwrap();
    assert_eq!(seed_on["fields"]["sowing"], "relay");
    assert_eq!(seed_on["fields"]["capture"], "none");
}

#[tokio::test]
async fn new_games_from_rules_positions_and_defaults() {
    let (app, _) = server(10, 10);
    let default = ok(&app, "POST", "/api/games", "", StatusCode::CREATED).await;
    assert_eq!(default["rules"], "kalah(6,6) standard");
    assert_eq!(default["players"], json!({"south": "human", "north": "engine:3"}));
    assert_eq!(default["phase"], "play");
    assert_eq!(default["to_move"], "South");
    let custom =
        create(&app, json!({"rules": "kalah(4,3) empty-capture pie", "south": "engine:1", "north": "human"})).await;
    assert_eq!(custom["rules"], "kalah(4,3) empty-capture pie");
    assert_eq!(custom["board"]["south"], json!([3, 3, 3, 3]));
    assert_eq!(custom["engine_to_move"], true);
    assert_ne!(id(&default), id(&custom));
    let from_position =
        create(&app, json!({"position": "1,0,2:5/0,3,1:4/N", "south": "human", "north": "human"})).await;
    assert_eq!(from_position["houses"], 3);
    assert_eq!(from_position["to_move"], "North");
    assert_eq!(from_position["position"], "1,0,2:5/0,3,1:4/N");
    let mixed =
        "kalah(5,2) capture=none end=mover-stuck leftover=discard direction=cw sowing=relay majority-ends handicap";
    let every_field = create(&app, json!({"rules": mixed})).await;
    assert_eq!(every_field["rules"], mixed);
    assert_eq!(every_field["phase"], "handicap");
    assert_eq!(every_field["to_move"], "North");
}

#[tokio::test]
async fn bad_new_games_are_refused_with_what_is_wrong() {
    let (app, _) = server(10, 10);
    let bad = StatusCode::BAD_REQUEST;
    for (body, says) in [
        ("{", "cannot read the JSON body"),
        ("[1,2]", "cannot read the JSON body"),
        (r#"{"rules": 7}"#, "invalid type"),
        (r#"{"colour": "red"}"#, "unknown field `colour`"),
        (r#"{"rules": "kalah(13,4) standard"}"#, "bad rules"),
        (r#"{"rules": "kalah(6,4) sometimes"}"#, "bad rules"),
        (r#"{"rules": "kalah(6,4) standard", "position": "4,4,4:0/4,4,4:0/S"}"#, "6 houses"),
        (r#"{"position": "1,2/3"}"#, "cannot read position"),
        (r#"{"south": "robot"}"#, "south: unknown player \"robot\""),
        (r#"{"north": "engine:9"}"#, "north: unknown player"),
        (r#"{"record": "[Event \"x\"]\n1. 3"}"#, "cannot load the record: line 1"),
        (r#"{"record": "[Rules \"kalah(6,4) standard\"]", "rules": "kalah(6,4) standard"}"#, "leave out rules"),
    ] {
        refused(&app, "POST", "/api/games", body, bad, says).await;
    }
    let huge = format!(r#"{{"rules": "{}"}}"#, "x".repeat(crate::app::MAX_BODY));
    refused(&app, "POST", "/api/games", &huge, StatusCode::PAYLOAD_TOO_LARGE, "larger than 256 KiB").await;
}

#[tokio::test]
async fn every_error_is_one_line_of_json_and_every_answer_has_the_security_headers() {
    let (app, _) = server(10, 10);
    let game = create(&app, json!({"north": "human"})).await;
    let url = format!("/api/games/{}", id(&game));
    refused(&app, "PUT", "/api/games", "", StatusCode::METHOD_NOT_ALLOWED, "PUT is not taken at /api/games: use POST")
        .await;
    refused(&app, "GET", &format!("{url}/move"), "", StatusCode::METHOD_NOT_ALLOWED, "use POST").await;
    refused(&app, "GET", "/nothing", "", StatusCode::NOT_FOUND, "nothing at GET /nothing").await;
    for uri in ["/", "/app.js", "/style.css", "/api/variants", url.as_str(), "/nothing"] {
        let request = Request::builder().uri(uri).body(Body::empty()).unwrap();
        let response = app.clone().oneshot(request).await.unwrap();
        let headers = response.headers();
        let csp = headers["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("script-src 'self'") && csp.contains("frame-ancestors 'none'"), "{uri}: {csp}");
        assert!(!csp.contains("unsafe-inline"), "{uri}");
        assert_eq!(headers["x-content-type-options"], "nosniff", "{uri}");
        assert_eq!(headers["referrer-policy"], "no-referrer", "{uri}");
    }
}

#[tokio::test]
async fn the_analysis_is_the_deciders_while_north_decides_the_handicap_or_the_pie_offer() {
    let (app, _) = server(200, 10);
    // North decides the handicap: the analysis is North's decision, as the hint's.
    let game = create(&app, json!({"rules": "kalah(6,4) standard handicap", "north": "human"})).await;
    let url = format!("/api/games/{}", id(&game));
    let hint = ok(&app, "GET", &format!("{url}/hint"), "", StatusCode::OK).await;
    let analysis = ok(&app, "GET", &format!("{url}/analysis"), "", StatusCode::OK).await;
    assert_eq!(analysis["side"], "North", "{analysis}");
    assert_eq!(hint["side"], "North");
    let action = analysis["action"].as_str().unwrap();
    assert!(action == "keep" || action.contains('>'), "a handicap decision, not a sowing: {analysis}");
    assert_eq!(analysis["best"], Value::Null);
    // The value is South's view: North's choice leaves South at most what South has at the start.
    assert!(analysis["value"].as_f64().unwrap() < 9.0, "{analysis}");
    // The pie offer: North to decide whether to swap. The search stops once the value is exact
    // (about 70 ms in a debug build), so the long limit only keeps a busy machine from making
    // it inexact.
    let (app, _) = server(20_000, 10);
    let game = create(&app, json!({"rules": "kalah(4,3) standard pie", "north": "human"})).await;
    let url = format!("/api/games/{}", id(&game));
    ok(&app, "POST", &format!("{url}/move"), r#"{"action": 1}"#, StatusCode::OK).await;
    let state = ok(&app, "GET", &url, "", StatusCode::OK).await;
    assert_eq!(state["phase"], "pie", "{state}");
    let analysis = ok(&app, "GET", &format!("{url}/analysis"), "", StatusCode::OK).await;
    let hint = ok(&app, "GET", &format!("{url}/hint"), "", StatusCode::OK).await;
    assert_eq!(analysis["side"], "North");
    assert_eq!(analysis["action"], hint["action"], "{analysis} {hint}");
    // Kalah(4,3) is solved at once: North's choice is worth its exact value to the side it takes,
    // and South's view is the other side's.
    assert_eq!(analysis["exact"], true);
    let swapped = hint["action"] == "swap";
    let value = analysis["value"].as_f64().unwrap();
    let for_decider = hint["value"].as_f64().unwrap();
    assert_eq!(value, if swapped { for_decider } else { -for_decider }, "{analysis} {hint}");
}

#[tokio::test]
async fn moves_play_and_illegal_moves_change_nothing() {
    let (app, _) = server(10, 10);
    let game = create(&app, json!({"rules": "kalah(6,4) standard", "north": "human"})).await;
    let url = format!("/api/games/{}", id(&game));
    // House 3 holds 4 seeds and ends in South's store: an extra move.
    let after = ok(&app, "POST", &format!("{url}/move"), r#"{"action": 3}"#, StatusCode::OK).await;
    assert_eq!(after["position"], "4,4,0,5,5,5:1/4,4,4,4,4,4:0/S");
    assert_eq!(after["ply"], 1);
    assert_eq!(after["last"]["sowed"]["extra_move"], true);
    assert_eq!(after["last"]["before"]["south"], json!([4, 4, 4, 4, 4, 4]));
    let path: Vec<(String, u64)> = after["last"]["path"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["kind"].as_str().unwrap().to_string(), s["cell"].as_u64().unwrap()))
        .collect();
    let expected: Vec<(String, u64)> = [("lift", 2), ("drop", 3), ("drop", 4), ("drop", 5), ("drop", 6)]
        .iter()
        .map(|(k, c)| (k.to_string(), *c))
        .collect();
    assert_eq!(path, expected);
    assert_eq!(after["status"], "South to move");
    let before = ok(&app, "GET", &url, "", StatusCode::OK).await;
    for (body, says) in [
        (r#"{"action": "3"}"#, "house 3 is empty"),
        (r#"{"action": 7}"#, "there is no house 7"),
        (r#"{"action": 0}"#, "there is no house 0"),
        (r#"{"action": "swap"}"#, "swap is allowed only under the pie rule"),
        (r#"{"action": "S1>N1"}"#, "handicap move is allowed only"),
        (r#"{"action": "seven"}"#, "cannot read the move"),
        // Strict: a move is written exactly as records write it.
        (r#"{"action": " 1 "}"#, "cannot read the move"),
        (r#"{"action": "+1"}"#, "cannot read the move"),
        (r#"{"action": "01"}"#, "cannot read the move"),
        (r#"{"action": [1]}"#, "cannot read the JSON body"),
        (r#"{"action": 1.0}"#, "cannot read the JSON body"),
        (r#"{"action": -1}"#, "cannot read the JSON body"),
        (r#"{"house": 1}"#, "unknown field"),
        ("", "needs a JSON body"),
    ] {
        refused(&app, "POST", &format!("{url}/move"), body, StatusCode::BAD_REQUEST, says).await;
    }
    assert_eq!(ok(&app, "GET", &url, "", StatusCode::OK).await, before, "refused moves change nothing");
}

#[tokio::test]
async fn a_json_key_with_a_line_break_gets_a_one_line_error() {
    // Found by the fuzz target web_request: the JSON reader's message repeats the unknown key.
    let (app, _) = server(10, 10);
    let (status, body) = call(&app, "POST", "/api/games", "{\"ru\\nles\": 1}").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let message = body["error"].as_str().expect("a JSON error");
    assert!(message.contains("unknown field `ru\\nles`"), "{message}");
    assert!(!message.contains('\n'), "{message:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_busy_server_answers_503_with_retry_after_and_engine_moves_go_first() {
    // Two searches, both taken by level-5 engine moves of a minute each: they are still thinking
    // when the hint and the analysis ask, however busy the machine, until their games close.
    let (app, _) = server(60_000, 10);
    let mut urls = Vec::new();
    for _ in 0..3 {
        let game = create(&app, json!({"rules": "kalah(6,6) standard", "south": "engine:5"})).await;
        urls.push(format!("/api/games/{}", id(&game)));
    }
    let engine_move = |url: &String| {
        let (app, url) = (app.clone(), url.clone());
        tokio::spawn(async move { call(&app, "POST", &format!("{url}/engine"), "").await })
    };
    let (first, second) = (engine_move(&urls[0]), engine_move(&urls[1]));
    until_thinking(&app, &urls[0]).await;
    until_thinking(&app, &urls[1]).await;
    // A hint waits a second at most, an analysis a tenth: then the server says it is busy, while
    // the searches go on.
    let request = Request::builder().uri(format!("{}/hint", urls[2])).body(Body::empty()).unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(response.headers()["retry-after"], "1");
    refused(&app, "GET", &format!("{}/analysis", urls[2]), "", StatusCode::SERVICE_UNAVAILABLE, "busy").await;
    // HEAD runs no search: it is answered at once, busy engines or not.
    for what in ["hint", "analysis"] {
        let (status, body) = call(&app, "HEAD", &format!("{}/{what}", urls[2]), "").await;
        assert_eq!(status, StatusCode::OK, "HEAD {what}: {body}");
    }
    for url in &urls[..2] {
        assert_eq!(ok(&app, "GET", url, "", StatusCode::OK).await["thinking"], true, "answered before {url} ended");
        let (status, _) = call(&app, "DELETE", url, "").await;
        assert_eq!(status, StatusCode::NO_CONTENT);
    }
    // Closing a game stops its search (see an_undo_or_a_close_stops_the_engine).
    assert_eq!(first.await.unwrap().0, StatusCode::CONFLICT);
    assert_eq!(second.await.unwrap().0, StatusCode::CONFLICT);
}

#[tokio::test]
async fn a_timed_game_charges_each_player_and_ends_when_a_clock_runs_out() {
    let (app, _) = server(10, 10);
    refused(&app, "POST", "/api/games", r#"{"clock": {"seconds": 0}}"#, StatusCode::BAD_REQUEST, "clock: 0 seconds")
        .await;
    refused(
        &app,
        "POST",
        "/api/games",
        r#"{"clock": {"seconds": 60, "increment": 4000}}"#,
        StatusCode::BAD_REQUEST,
        "0 to 3600",
    )
    .await;
    // No clock runs until both players have moved: each first move is free, and gets the
    // increment.
    let game = create(&app, json!({"north": "human", "clock": {"seconds": 60, "increment": 5}})).await;
    assert_eq!(game["clock"]["running"], Value::Null);
    assert_eq!(game["clock"]["north_ms"], 60_000);
    let url = format!("/api/games/{}", id(&game));
    // House 2 of Kalah(6,6) ends in North's house 1: North is to move.
    let moved = ok(&app, "POST", &format!("{url}/move"), r#"{"action": 2}"#, StatusCode::OK).await;
    assert_eq!((moved["clock"]["south_ms"].as_u64(), &moved["clock"]["running"]), (Some(65_000), &Value::Null));
    // North's house 1 ends in South's house 1: South is to move, and the clocks run.
    let started = Instant::now();
    let moved = ok(&app, "POST", &format!("{url}/move"), r#"{"action": 1}"#, StatusCode::OK).await;
    assert_eq!((moved["clock"]["north_ms"].as_u64(), &moved["clock"]["running"]), (Some(65_000), &json!("South")));
    let again = ok(&app, "GET", &url, "", StatusCode::OK).await;
    let south = again["clock"]["south_ms"].as_u64().unwrap();
    let taken = started.elapsed().as_millis() as u64;
    assert!(south <= 65_000 && south + taken + 1 >= 65_000, "65 s less at most {taken} ms: {south} ms");
    // One second for the game: once both have moved, South runs out, and the game is over and
    // lost by South.
    let game = create(&app, json!({"north": "human", "clock": {"seconds": 1}})).await;
    let url = format!("/api/games/{}", id(&game));
    ok(&app, "POST", &format!("{url}/move"), r#"{"action": 2}"#, StatusCode::OK).await;
    ok(&app, "POST", &format!("{url}/move"), r#"{"action": 1}"#, StatusCode::OK).await;
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let over = ok(&app, "GET", &url, "", StatusCode::OK).await;
    assert_eq!(over["result"]["lost_on_time"], "South", "{over}");
    assert_eq!(over["result"]["winner"], "North");
    assert_eq!(over["phase"], "over");
    assert_eq!(over["to_move"], Value::Null);
    assert_eq!(over["clock"]["south_ms"], 0);
    assert!(over["status"].as_str().unwrap().contains("Game over: South ran out of time; North wins."), "{over}");
    refused(&app, "POST", &format!("{url}/move"), r#"{"action": 1}"#, StatusCode::BAD_REQUEST, "the game is over")
        .await;
    let (_, record) = call(&app, "GET", &format!("{url}/record"), "").await;
    assert!(record.as_str().unwrap().contains("[Termination \"South ran out of time\"]"), "{record}");
}

#[tokio::test]
async fn undo_redo_and_goto_step_through_the_line() {
    let (app, _) = server(10, 10);
    let game = create(&app, json!({"rules": "kalah(4,3) standard", "north": "human"})).await;
    let url = format!("/api/games/{}", id(&game));
    refused(&app, "POST", &format!("{url}/undo"), "", StatusCode::BAD_REQUEST, "nothing to undo").await;
    refused(&app, "POST", &format!("{url}/redo"), "", StatusCode::BAD_REQUEST, "nothing to redo").await;
    for action in [1, 1, 2] {
        ok(&app, "POST", &format!("{url}/move"), &json!({"action": action}).to_string(), StatusCode::OK).await;
    }
    let undone = ok(&app, "POST", &format!("{url}/undo"), "", StatusCode::OK).await;
    assert_eq!(undone["ply"], 2, "between people an undo takes back one action");
    assert_eq!(undone["moves"].as_array().unwrap().len(), 3);
    assert_eq!(undone["moves"][2]["played"], false);
    let back = ok(&app, "POST", &format!("{url}/undo"), r#"{"plies": 2}"#, StatusCode::OK).await;
    assert_eq!(back["ply"], 0);
    assert_eq!(back["position"], back["start"]);
    let redone = ok(&app, "POST", &format!("{url}/redo"), r#"{"plies": 1}"#, StatusCode::OK).await;
    assert_eq!(redone["ply"], 1);
    let end = ok(&app, "POST", &format!("{url}/goto"), r#"{"ply": 3}"#, StatusCode::OK).await;
    assert_eq!(end["ply"], 3);
    assert!(end["moves"].as_array().unwrap().iter().all(|m| m["played"] == true));
    refused(&app, "POST", &format!("{url}/goto"), r#"{"ply": 4}"#, StatusCode::BAD_REQUEST, "plies 0 to 3").await;
    refused(&app, "POST", &format!("{url}/goto"), r#"{"ply": "x"}"#, StatusCode::BAD_REQUEST, "invalid type").await;
    refused(&app, "POST", &format!("{url}/undo"), r#"{"plies": -2}"#, StatusCode::BAD_REQUEST, "invalid value").await;
    // Undo, redo and goto all refuse an overshoot, and a refused one changes nothing.
    refused(&app, "POST", &format!("{url}/undo"), r#"{"plies": 4}"#, StatusCode::BAD_REQUEST, "3 were played").await;
    ok(&app, "POST", &format!("{url}/goto"), r#"{"ply": 1}"#, StatusCode::OK).await;
    refused(&app, "POST", &format!("{url}/redo"), r#"{"plies": 3}"#, StatusCode::BAD_REQUEST, "2 were taken back")
        .await;
    refused(&app, "POST", &format!("{url}/undo"), r#"{"plies": 0}"#, StatusCode::BAD_REQUEST, "at least 1").await;
    let still = ok(&app, "GET", &url, "", StatusCode::OK).await;
    assert_eq!(still["ply"], 1);
}

#[tokio::test]
async fn a_person_against_the_engine_plays_to_the_end_and_the_record_reloads() {
    let (app, _) = server(20, 10);
    let game = create(&app, json!({"rules": "kalah(3,2) standard", "south": "human", "north": "engine:2"})).await;
    let url = format!("/api/games/{}", id(&game));
    refused(&app, "POST", &format!("{url}/engine"), "", StatusCode::BAD_REQUEST, "South is played by a person").await;
    let mut state = game;
    for _ in 0..100 {
        if state["result"].is_object() {
            break;
        }
        state = if state["engine_to_move"] == true {
            refused(
                &app,
                "POST",
                &format!("{url}/move"),
                r#"{"action": 1}"#,
                StatusCode::BAD_REQUEST,
                "played by the engine",
            )
            .await;
            ok(&app, "POST", &format!("{url}/engine"), "", StatusCode::OK).await
        } else {
            let first = state["legal"][0].as_str().unwrap().to_string();
            ok(&app, "POST", &format!("{url}/move"), &json!({"action": first}).to_string(), StatusCode::OK).await
        };
    }
    let result = &state["result"];
    assert!(result.is_object(), "the game ended: {state}");
    assert_eq!(result["south"].as_u64().unwrap() + result["north"].as_u64().unwrap(), 12);
    assert!(state["status"].as_str().unwrap().starts_with("Game over: South"), "{}", state["status"]);
    assert_eq!(state["phase"], "over");
    assert_eq!(state["to_move"], Value::Null);
    refused(&app, "POST", &format!("{url}/engine"), "", StatusCode::BAD_REQUEST, "the game is over").await;
    refused(&app, "POST", &format!("{url}/move"), r#"{"action": 1}"#, StatusCode::BAD_REQUEST, "the game is over")
        .await;
    refused(&app, "GET", &format!("{url}/hint"), "", StatusCode::BAD_REQUEST, "the game is over").await;
    let final_value = ok(&app, "GET", &format!("{url}/analysis"), "", StatusCode::OK).await;
    assert_eq!(final_value["exact"], true);
    let margin = result["south"].as_i64().unwrap() - result["north"].as_i64().unwrap();
    assert_eq!(final_value["value"].as_f64().unwrap(), margin as f64);

    let (status, text) = call(&app, "GET", &format!("{url}/record"), "").await;
    assert_eq!(status, StatusCode::OK);
    let text = text.as_str().unwrap().to_string();
    let record = Record::parse(&text).expect("the saved record reads back").record;
    assert_eq!(record.game.actions().len(), state["ply"].as_u64().unwrap() as usize);
    assert!(text.contains("[North \"engine level 2\"]"), "{text}");
    assert!(text.contains(&format!("[End \"{}\"]", state["position"].as_str().unwrap())), "{text}");
    let loaded = create(&app, json!({"record": text, "north": "human"})).await;
    assert_eq!(loaded.get("warnings"), None, "a record with its End tag loads without a warning");
    assert_eq!(loaded["position"], state["position"]);
    assert_eq!(loaded["moves"].as_array().unwrap().len(), state["moves"].as_array().unwrap().len());
    assert_eq!(loaded["result"], state["result"]);

    // An undo against the engine takes back its reply too, back to the person's decision.
    let undone = ok(&app, "POST", &format!("{url}/undo"), "", StatusCode::OK).await;
    assert_eq!(undone["engine_to_move"], false);
    assert_eq!(undone["to_move"], "South");
}

#[tokio::test]
async fn records_without_an_end_tag_load_with_a_warning_and_damaged_ones_are_refused() {
    let (app, _) = server(10, 10);
    let old = "[Rules \"kalah(6,4) standard\"]\n[Result \"*\"]\n\n1. 2 1\n2. 1 2\n*\n";
    let loaded = create(&app, json!({"record": old, "north": "human"})).await;
    assert_eq!(loaded["ply"], 4);
    let warnings = loaded["warnings"].as_array().expect("a warning");
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].as_str().unwrap().starts_with("the record has no [End"), "{warnings:?}");
    // The next state of the game carries no warning.
    let url = format!("/api/games/{}", id(&loaded));
    assert_eq!(ok(&app, "GET", &url, "", StatusCode::OK).await.get("warnings"), None);
    for (record, says) in [
        ("[Rules \"kalah(6,4) standard\"]\n\n1. 2 1\n2. 1 2\n", "line 4: the moves do not end with the result token"),
        (
            "[Rules \"kalah(6,4) standard\"]\n[End \"4,4,4,4,4,4:0/4,4,4,4,4,4:0/S\"]\n\n1. 1 2\n*\n",
            "line 2: the End tag says",
        ),
    ] {
        let body = json!({ "record": record }).to_string();
        refused(&app, "POST", "/api/games", &body, StatusCode::BAD_REQUEST, says).await;
    }
}

#[tokio::test]
async fn the_searches_are_drawn_on_the_position_shown_with_the_games_averages() {
    let (app, _) = server(30, 10);
    let game = create(&app, json!({"rules": "kalah(6,6) standard", "north": "human"})).await;
    let url = format!("/api/games/{}", id(&game));
    ok(&app, "POST", &format!("{url}/move"), r#"{"action": 3}"#, StatusCode::OK).await;
    let drawn = ok(&app, "GET", &format!("{url}/searches?search=alphabeta&depth=3"), "", StatusCode::OK).await;
    assert_eq!(drawn["position"], "6,6,0,7,7,7:1/7,7,6,6,6,6:0/N", "{drawn}");
    let nodes = drawn["tree"]["nodes"].as_array().unwrap();
    let alphabeta = &drawn["searches"][1];
    assert_eq!(alphabeta["search"], "AlphaBeta");
    assert_eq!(nodes.len() as f64, alphabeta["total"].as_f64().unwrap());
    assert_eq!(drawn["game"]["positions"], 2, "the start and the position shown");
    // Defaults: alpha-beta to depth 3.
    let plain = ok(&app, "GET", &format!("{url}/searches"), "", StatusCode::OK).await;
    assert_eq!(plain["tree"], drawn["tree"]);
    // Too many calls to draw: the counts, and why there is no tree.
    let wide = ok(&app, "GET", &format!("{url}/searches?search=minimax&depth=6"), "", StatusCode::OK).await;
    assert!(wide["tree"].is_null() && wide["untraced"].as_str().unwrap().contains("5000"), "{wide}");
    refused(&app, "GET", &format!("{url}/searches?depth=7"), "", StatusCode::BAD_REQUEST, "1 to 6").await;
    refused(&app, "GET", &format!("{url}/searches?search=bfs"), "", StatusCode::BAD_REQUEST, "minimax, alphabeta")
        .await;
    refused(&app, "GET", "/api/games/nosuch/searches", "", StatusCode::NOT_FOUND, "no game").await;
}

#[tokio::test]
async fn hints_and_analysis_answer_for_the_position_shown() {
    let (app, _) = server(30, 10);
    let game = create(&app, json!({"rules": "kalah(4,3) standard pie", "north": "human"})).await;
    let url = format!("/api/games/{}", id(&game));
    let hint = ok(&app, "GET", &format!("{url}/hint"), "", StatusCode::OK).await;
    assert_eq!(hint["side"], "South");
    assert!(game["legal"].as_array().unwrap().contains(&hint["action"]), "{hint}");
    assert!(hint["value"].as_f64().is_some() && hint["depth"].as_u64().unwrap() >= 1);
    let analysis = ok(&app, "GET", &format!("{url}/analysis"), "", StatusCode::OK).await;
    assert_eq!(analysis["version"], game["version"]);
    assert_eq!(analysis["side"], "South");
    let best = analysis["best"].as_u64().unwrap();
    assert!((1..=4).contains(&best));
    assert_eq!(analysis["line"][0].as_u64(), Some(best));
    let again = ok(&app, "GET", &format!("{url}/analysis"), "", StatusCode::OK).await;
    assert_eq!(again, analysis, "the analysis of a version is kept");
    // South's first turn (house 2 gives an extra move, then house 1), then North is offered the swap.
    ok(&app, "POST", &format!("{url}/move"), r#"{"action": 2}"#, StatusCode::OK).await;
    let offer = ok(&app, "POST", &format!("{url}/move"), r#"{"action": 1}"#, StatusCode::OK).await;
    assert_eq!(offer["phase"], "pie");
    assert!(offer["legal"].as_array().unwrap().contains(&json!("swap")));
    let hint = ok(&app, "GET", &format!("{url}/hint"), "", StatusCode::OK).await;
    assert_eq!(hint["side"], "North");
    assert!(offer["legal"].as_array().unwrap().contains(&hint["action"]), "{hint}");
    let swapped = ok(&app, "POST", &format!("{url}/move"), r#"{"action": "swap"}"#, StatusCode::OK).await;
    assert_eq!(swapped["swapped"], true);
    assert_eq!(swapped["players"], json!({"south": "human", "north": "human"}));
    assert_eq!(swapped["last"]["path"], json!([]));
}

#[tokio::test]
async fn the_explorer_answers_from_a_book_at_once_and_else_solves_every_move() {
    let rules = kalah_rules::Rules::standard(4, 3).unwrap();
    let solver = kalah_engine::solver::Solver::new(kalah_engine::search::Options::default());
    let book = kalah_engine::book::Book::build(&solver, &rules, 1, |_, _, _, _| {});
    let config = Config {
        engine_time: Duration::from_secs(10),
        searches: 2,
        table_bytes: 4 << 20,
        books: vec![Arc::new(book)],
        ..Config::default()
    };
    let app = router(Arc::new(App::new(&config).unwrap()));
    let game = create(&app, json!({"rules": "kalah(4,3) standard", "north": "human"})).await;
    let url = format!("/api/games/{}", id(&game));
    let booked = ok(&app, "GET", &format!("{url}/explore"), "", StatusCode::OK).await;
    assert_eq!((booked["source"].as_str(), booked["nodes"].as_u64()), (Some("book"), Some(0)), "{booked}");
    assert_eq!((booked["exact"].as_bool(), booked["value"].as_i64()), (Some(true), Some(6)), "{booked}");
    let moves = booked["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4);
    assert_eq!(moves[1]["again"], true, "house 2 of 3,3,3,3 ends in the store: {booked}");
    // After a move the book holds nothing: the solver answers, with the same values as a solve.
    ok(&app, "POST", &format!("{url}/move"), r#"{"action": 1}"#, StatusCode::OK).await;
    let solved = ok(&app, "GET", &format!("{url}/explore"), "", StatusCode::OK).await;
    assert_eq!((solved["source"].as_str(), solved["side"].as_str()), (Some("solver"), Some("North")), "{solved}");
    assert_eq!(solved["complete"], true, "{solved}");
    let position: kalah_rules::Position = solved["position"].as_str().unwrap().parse().unwrap();
    for m in solved["moves"].as_array().unwrap() {
        let mv = kalah_rules::Move::from_number(m["move"].as_u64().unwrap() as u32).unwrap();
        let child = position.play(&rules, mv).unwrap().0;
        let info =
            solver.solve(&child, &rules, None, kalah_engine::search::Limits::default(), None, |_, _| {}).unwrap();
        let value = i64::from(info.score.whole_seeds().0);
        let expected = if child.mover() == position.mover() { value } else { -value };
        assert_eq!(m["value"].as_i64(), Some(expected), "{m}");
    }
    // A game between friends gets no explorer while it goes on.
    let friends = create(&app, json!({"rules": "kalah(4,3) standard", "friend": true})).await;
    refused(&app, "GET", &format!("/api/games/{}/explore", id(&friends)), "", StatusCode::FORBIDDEN, "").await;
}

#[tokio::test]
async fn unknown_games_are_not_found_on_every_endpoint() {
    let (app, _) = server(10, 10);
    let url = "/api/games/0123456789abcdef";
    for (method, path, body) in [
        ("GET", "", ""),
        ("DELETE", "", ""),
        ("POST", "/move", r#"{"action": 1}"#),
        ("POST", "/engine", ""),
        ("POST", "/undo", ""),
        ("POST", "/redo", ""),
        ("POST", "/goto", r#"{"ply": 0}"#),
        ("GET", "/hint", ""),
        ("GET", "/analysis", ""),
        ("GET", "/record", ""),
    ] {
        refused(&app, method, &format!("{url}{path}"), body, StatusCode::NOT_FOUND, "there is no game").await;
    }
    let game = create(&app, json!({})).await;
    let url = format!("/api/games/{}", id(&game));
    let (status, _) = call(&app, "DELETE", &url, "").await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    refused(&app, "GET", &url, "", StatusCode::NOT_FOUND, "deleted, or never was").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_games_at_once_keep_to_themselves() {
    let (app, _) = server(5, 100);
    let tasks: Vec<_> = (0..24)
        .map(|n: usize| {
            let app = app.clone();
            tokio::spawn(async move {
                let game = create(&app, json!({"rules": "kalah(6,4) standard", "north": "engine:1"})).await;
                let url = format!("/api/games/{}", id(&game));
                let house = 1 + n % 6;
                let body = json!({"action": house}).to_string();
                let state = ok(&app, "POST", &format!("{url}/move"), &body, StatusCode::OK).await;
                let state = if state["engine_to_move"] == true {
                    ok(&app, "POST", &format!("{url}/engine"), "", StatusCode::OK).await
                } else {
                    state
                };
                (id(&game), house, state)
            })
        })
        .collect();
    let mut ids = std::collections::HashSet::new();
    for task in tasks {
        let (id, house, state) = task.await.expect("the task finishes");
        assert!(ids.insert(id.clone()), "ids differ");
        assert_eq!(state["moves"][0]["action"], house.to_string(), "game {id} kept its own first move");
        let shown = ok(&app, "GET", &format!("/api/games/{id}"), "", StatusCode::OK).await;
        assert_eq!(shown, state);
    }
}

#[tokio::test]
async fn idle_games_are_put_away_and_a_full_server_refuses_new_ones() {
    let (app, state) = server(10, 2);
    let a = create(&app, json!({})).await;
    create(&app, json!({})).await;
    refused(&app, "POST", "/api/games", "{}", StatusCode::SERVICE_UNAVAILABLE, "most games (2)").await;
    assert_eq!(state.games.expire(Instant::now() + Duration::from_secs(601)), 2);
    // Put away, not lost: read back from the database.
    ok(&app, "GET", &format!("/api/games/{}", id(&a)), "", StatusCode::OK).await;
    create(&app, json!({})).await;
}

/// Waits until the engine is thinking about game `url` (a hang guard, not a timing).
async fn until_thinking(app: &Router, url: &str) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while ok(app, "GET", url, "", StatusCode::OK).await["thinking"] != true {
        assert!(Instant::now() < deadline, "the engine never started");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_undo_or_a_close_stops_the_engine() {
    // A minute a move on Kalah(6,6) at full strength: only the stop flag ends these searches
    // before the guard below gives up.
    let (app, _) = server(60_000, 10);
    for close in [false, true] {
        let game = create(&app, json!({"rules": "kalah(6,6) standard", "north": "engine:5"})).await;
        let url = format!("/api/games/{}", id(&game));
        let moved = ok(&app, "POST", &format!("{url}/move"), r#"{"action": 2}"#, StatusCode::OK).await;
        assert_eq!(moved["engine_to_move"], true);
        let engine = {
            let (app, url) = (app.clone(), url.clone());
            tokio::spawn(async move { call(&app, "POST", &format!("{url}/engine"), "").await })
        };
        until_thinking(&app, &url).await;
        refused(&app, "POST", &format!("{url}/engine"), "", StatusCode::CONFLICT, "the engine is thinking").await;
        refused(
            &app,
            "POST",
            &format!("{url}/move"),
            r#"{"action": 1}"#,
            StatusCode::BAD_REQUEST,
            "played by the engine",
        )
        .await;
        if close {
            let (status, _) = call(&app, "DELETE", &url, "").await;
            assert_eq!(status, StatusCode::NO_CONTENT);
        } else {
            let undone = ok(&app, "POST", &format!("{url}/undo"), "", StatusCode::OK).await;
            assert_eq!(undone["ply"], 0);
        }
        let (status, body) = tokio::time::timeout(Duration::from_secs(30), engine)
            .await
            .expect("the stopped search ends long before its minute")
            .expect("the request finishes");
        assert_eq!(status, StatusCode::CONFLICT, "{body}");
        if !close {
            let shown = ok(&app, "GET", &url, "", StatusCode::OK).await;
            assert_eq!(shown["ply"], 0, "the stopped engine played nothing");
            assert_eq!(shown["thinking"], false);
        }
    }
}

/// Sends a request with the headers given (and a JSON content type only if one is given).
#[tokio::test]
async fn an_error_names_its_message_and_speaks_the_language_the_request_accepts() {
    let (app, _) = server(10, 10);
    let url = "/api/games/0123456789abcdef";
    // No language asked: the English text, and the message's name and arguments for a page.
    let (status, english) = call_with(&app, "GET", url, &[], "").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(english["error"].as_str().unwrap().starts_with("there is no game"), "{english}");
    assert_eq!(english["code"], "error-no-game");
    assert_eq!(english["args"]["id"], "0123456789abcdef", "{english}");
    // German, from the German catalog; a language with no catalog gets English.
    let (_, german) = call_with(&app, "GET", url, &[("accept-language", "de-DE,de;q=0.9,en;q=0.5")], "").await;
    assert_eq!(
        german["error"], "Es gibt keine Partie „0123456789abcdef“: Sie wurde gelöscht oder gab es nie.",
        "{german}"
    );
    assert_eq!((&german["code"], &german["args"]), (&english["code"], &english["args"]));
    let (_, other) = call_with(&app, "GET", url, &[("accept-language", "fr")], "").await;
    assert_eq!(other, english);
    // Every refusal's message is in every catalog. (fluent-bundle writes numbers without
    // grouping in every language; the pages' @fluent/bundle writes them as the language does.)
    let words = kalah_l10n::Words::new().unwrap();
    for refused in [
        Refused::Over,
        Refused::NotYours(kalah_rules::Side::North),
        Refused::Takeback(kalah_table::refused::Takeback::Nothing),
        Refused::Ended(kalah_table::refused::Ended::OnTime),
        Refused::Stale { made: 3, now: 1234 },
    ] {
        let said = refused.said();
        for language in words.languages() {
            assert!(crate::words::say(&said, language).is_some(), "{} in {language}", said.id);
        }
        assert_ne!(said.id, "error-takeback", "{refused:?} is said in general terms");
    }
    let stale = Refused::Stale { made: 3, now: 1234 }.said();
    assert_eq!(
        crate::words::say(&stale, "de").unwrap(),
        "Der Zug wurde auf Stand 3 der Partie gemacht, jetzt ist sie bei Stand 1234: Schau noch einmal."
    );
    assert_eq!(
        crate::words::english(&stale),
        "the move was made on version 3 of the game, which is at version 1234 now: look again"
    );
}

async fn call_with(app: &Router, method: &str, uri: &str, headers: &[(&str, &str)], body: &str) -> (StatusCode, Value) {
    let mut request = Request::builder().method(method).uri(uri);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let request = request.body(Body::from(body.to_string())).expect("a well-formed request");
    let response = app.clone().oneshot(request).await.expect("the router always answers");
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await.expect("a body");
    let text = String::from_utf8_lossy(&bytes).into_owned();
    (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
}

#[tokio::test]
async fn a_loaded_record_keeps_its_players() {
    let (app, _) = server(10, 10);
    // A game between two people, saved and loaded: North is still a person, not the engine.
    let game = create(&app, json!({"rules": "kalah(4,3) standard", "south": "human", "north": "human"})).await;
    let url = format!("/api/games/{}", id(&game));
    ok(&app, "POST", &format!("{url}/move"), r#"{"action": 1}"#, StatusCode::OK).await;
    let (_, text) = call(&app, "GET", &format!("{url}/record"), "").await;
    let text = text.as_str().unwrap().to_string();
    assert!(text.contains("[North \"human\"]"), "{text}");
    let loaded = create(&app, json!({ "record": text })).await;
    assert_eq!(loaded["seats"], json!(["human", "human"]), "{loaded}");
    assert_eq!(loaded["engine_to_move"], json!(false));
    // The engine at a level as the server writes it, and names of people.
    let tagged = |south: &str, north: &str| {
        text.replace("[South \"human\"]", &format!("[South \"{south}\"]"))
            .replace("[North \"human\"]", &format!("[North \"{north}\"]"))
    };
    let loaded = create(&app, json!({ "record": tagged("Ann", "engine level 2") })).await;
    assert_eq!(loaded["seats"], json!(["human", "engine:2"]), "{loaded}");
    // The request's players still win over the record's.
    let loaded = create(&app, json!({ "record": tagged("Ann", "Bob"), "north": "engine:1" })).await;
    assert_eq!(loaded["seats"], json!(["human", "engine:1"]), "{loaded}");
}

#[tokio::test]
async fn writes_from_another_site_are_refused_and_clients_get_their_share() {
    let (app, state) = server(10, 10);
    let json_type = ("content-type", "application/json");
    let host = ("host", "127.0.0.1:8080");
    // A page elsewhere posting text/plain (no preflight), or JSON with its own origin: refused.
    let (status, body) = call_with(&app, "POST", "/api/games", &[host, ("content-type", "text/plain")], "{}").await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{body}");
    let (status, body) =
        call_with(&app, "POST", "/api/games", &[host, json_type, ("origin", "http://evil.example")], "{}").await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    assert!(body["error"].as_str().unwrap().contains("another web site"), "{body}");
    assert_eq!(state.games.len(), 0, "nothing was created");
    // The server's own page, and a program that sends no Origin.
    let own = [host, json_type, ("origin", "http://127.0.0.1:8080")];
    let (status, body) = call_with(&app, "POST", "/api/games", &own, "{}").await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let (status, _) = call_with(&app, "POST", "/api/games", &[json_type], "{}").await;
    assert_eq!(status, StatusCode::CREATED);
    // One address may start only its share of games.
    let limited = with_shares(crate::ClientLimits { requests_per_second: 1000, games_per_minute: 3, channels: 64 });
    let routes = router(Arc::clone(&limited));
    let from = |ip: [u8; 4]| {
        let mut request = Request::builder()
            .method("POST")
            .uri("/api/games")
            .header("content-type", "application/json")
            .body(Body::from("{}"))
            .unwrap();
        request.extensions_mut().insert(axum::extract::ConnectInfo(std::net::SocketAddr::from((ip, 5000))));
        request
    };
    for _ in 0..3 {
        let response = routes.clone().oneshot(from([10, 0, 0, 1])).await.unwrap();
        assert_eq!(response.status(), StatusCode::CREATED);
    }
    let response = routes.clone().oneshot(from([10, 0, 0, 1])).await.unwrap();
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(response.headers().contains_key("retry-after"));
    let response = routes.clone().oneshot(from([10, 0, 0, 2])).await.unwrap();
    assert_eq!(response.status(), StatusCode::CREATED, "another address has its own share");
    assert_eq!(limited.games.len(), 4);
}

#[tokio::test]
async fn the_pages_files_are_not_drawn_from_a_clients_share_of_requests() {
    // A page loads some twenty-five files; loaded a few times in quick succession it must not be
    // refused one.
    let slow = with_shares(crate::ClientLimits { requests_per_second: 1, games_per_minute: 30, channels: 64 });
    let routes = router(Arc::clone(&slow));
    let get = |path: &str| {
        let mut request = Request::builder().method("GET").uri(path).body(Body::empty()).unwrap();
        request.extensions_mut().insert(axum::extract::ConnectInfo(std::net::SocketAddr::from(([10, 0, 0, 1], 5000))));
        request
    };
    for _ in 0..20 {
        for path in ["/", "/app.js", "/l10n.js", "/l10n/en.ftl", "/fluent/bundle.js"] {
            let response = routes.clone().oneshot(get(path)).await.unwrap();
            assert_eq!(response.status(), StatusCode::OK, "{path}");
        }
    }
    // The API's requests do draw from it: a burst of two, then 429.
    let mut statuses = Vec::new();
    for _ in 0..4 {
        statuses.push(routes.clone().oneshot(get("/api/variants")).await.unwrap().status());
    }
    assert_eq!(statuses[0], StatusCode::OK);
    assert_eq!(statuses[3], StatusCode::TOO_MANY_REQUESTS, "{statuses:?}");
    // So does a path the server does not have.
    assert_eq!(routes.clone().oneshot(get("/nothing-here")).await.unwrap().status(), StatusCode::TOO_MANY_REQUESTS);
}

/// A server whose clients have the shares `clients`.
fn with_shares(clients: crate::ClientLimits) -> Arc<App> {
    Arc::new(App::new(&Config { clients, ..Config::default() }).unwrap())
}

#[tokio::test]
async fn the_engines_clock_starts_when_it_is_asked_to_move() {
    // The page asks the engine to move once it has shown the person's move: the time between
    // is not the engine's. A paused clock makes "between" long without waiting.
    let (app, _) = server(50, 10);
    let game =
        create(&app, json!({"rules": "kalah(4,3) standard", "north": "engine:1", "clock": {"seconds": 60}})).await;
    let url = format!("/api/games/{}", id(&game));
    let moved = std::time::Instant::now();
    ok(&app, "POST", &format!("{url}/move"), r#"{"action": 1}"#, StatusCode::OK).await;
    let before = ok(&app, "GET", &url, "", StatusCode::OK).await;
    // Until it is asked, North's clock runs at most from South's move (the moments between are
    // whole milliseconds on the server's clock: one more may be counted); the session's own
    // test (games::tests) checks with moments it chooses that asking later starts it later.
    let spent = 60_000 - before["clock"]["north_ms"].as_u64().expect("North's clock");
    assert!(spent as u128 <= moved.elapsed().as_millis() + 1, "North has not been asked yet: {before}");
    let shown =
        ok(&app, "POST", &format!("{url}/shown"), &json!({"version": before["version"]}).to_string(), StatusCode::OK)
            .await;
    assert_eq!(shown["version"], before["version"], "showing changes no version");
}

/// Starts a server on a loopback port with `limits`; returns its address.
async fn listening(limits: crate::ConnectionLimits) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let app = Arc::new(App::new(&Config { connections: limits, ..Config::default() }).unwrap());
    tokio::spawn(crate::serve(listener, app, std::future::pending()));
    address
}

/// Reads what the server sends until it closes the connection.
async fn until_closed(stream: &mut tokio::net::TcpStream) -> String {
    use tokio::io::AsyncReadExt;
    let mut all = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => all.extend_from_slice(&buf[..n]),
        }
    }
    String::from_utf8_lossy(&all).into_owned()
}

/// Opens `n` connections to `address`, each answered 200 to a `GET` of `path` and kept open.
async fn hold(address: std::net::SocketAddr, n: usize, path: &str) -> Vec<tokio::io::BufReader<tokio::net::TcpStream>> {
    use tokio::io::AsyncWriteExt;
    let mut held = Vec::new();
    for _ in 0..n {
        let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
        stream.write_all(format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes()).await.unwrap();
        let mut reader = tokio::io::BufReader::new(stream);
        let mut line = String::new();
        tokio::io::AsyncBufReadExt::read_line(&mut reader, &mut line).await.unwrap();
        assert!(line.starts_with("HTTP/1.1 200"), "{line}");
        held.push(reader);
    }
    held
}

#[tokio::test]
async fn silent_and_slow_connections_are_closed_and_connections_are_capped() {
    use tokio::io::AsyncWriteExt;
    let limits = crate::ConnectionLimits {
        header: Duration::from_millis(300),
        body: Duration::from_millis(300),
        idle: Duration::from_millis(300),
        max: 2,
        per_client: 100,
    };
    let address = listening(limits).await;
    // A connection that sends nothing is closed (the test would wait for ever before).
    let mut silent = tokio::net::TcpStream::connect(address).await.unwrap();
    let said = until_closed(&mut silent).await;
    assert!(!said.contains("200 OK"), "{said}");
    // A header sent a byte at a time, each within the idle time, is cut off by the header time.
    let mut slow = tokio::net::TcpStream::connect(address).await.unwrap();
    let (mut reader, mut writer) = slow.split();
    let drip = async {
        for byte in b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ".iter().cycle() {
            if writer.write_all(&[*byte]).await.is_err() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    let closed = async {
        use tokio::io::AsyncReadExt;
        let mut buf = [0u8; 1024];
        while let Ok(n) = reader.read(&mut buf).await {
            if n == 0 {
                break;
            }
        }
    };
    tokio::select! { () = drip => {}, () = closed => {} }
    // A body that never comes is answered 408.
    let mut stalled = tokio::net::TcpStream::connect(address).await.unwrap();
    stalled
        .write_all(
            b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{",
        )
        .await
        .unwrap();
    let said = until_closed(&mut stalled).await;
    assert!(said.starts_with("HTTP/1.1 408"), "{said}");
    // Two connections held open: a third is answered 503 at once.
    let long = crate::ConnectionLimits { idle: Duration::from_secs(600), header: Duration::from_secs(600), ..limits };
    let address = listening(long).await;
    let _held = hold(address, 2, "/api/variants").await;
    let mut third = tokio::net::TcpStream::connect(address).await.unwrap();
    let said = until_closed(&mut third).await;
    assert!(said.starts_with("HTTP/1.1 503"), "{said}");
    assert!(said.contains("most connections"), "{said}");
    // One address holds its share: a third of its own is answered 429, as the server has room.
    let shared = crate::ConnectionLimits { max: 100, per_client: 2, ..long };
    let address = listening(shared).await;
    let mut held = hold(address, 2, "/healthz").await;
    let mut third = tokio::net::TcpStream::connect(address).await.unwrap();
    let said = until_closed(&mut third).await;
    assert!(said.starts_with("HTTP/1.1 429"), "{said}");
    assert!(said.contains("retry-after: 5") && said.contains("at most 2 open at once"), "{said}");
    // One closed: the address may connect again.
    drop(held.pop());
    let mut again = loop {
        let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
        stream.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").await.unwrap();
        let said = until_closed(&mut stream).await;
        // The server may not have seen the close yet: asked again until it has.
        if said.starts_with("HTTP/1.1 200") {
            break said;
        }
        tokio::task::yield_now().await;
    };
    assert!(again.contains("\"status\":\"ok\""), "{again}");
    again.clear();
}

#[tokio::test]
async fn finished_games_are_archived_until_deleted() {
    let (app, _) = server(10, 10);
    let game = create(&app, json!({"rules": "kalah(2,1) standard", "north": "human"})).await;
    let url = format!("/api/games/{}", id(&game));
    let archive = ok(&app, "GET", "/api/archive", "", StatusCode::OK).await;
    assert_eq!(archive["games"], json!([]), "a game that goes on is not in the archive");
    let mut state = game;
    while let Some(action) = state["legal"].get(0).cloned() {
        state =
            ok(&app, "POST", &format!("{url}/move"), &json!({ "action": action }).to_string(), StatusCode::OK).await;
    }
    assert!(state["result"].is_object(), "{state}");
    let archive = ok(&app, "GET", "/api/archive", "", StatusCode::OK).await;
    let listed = &archive["games"][0];
    assert_eq!(listed["id"], state["id"], "{archive}");
    assert_eq!(listed["rules"], json!("kalah(2,1) standard"));
    assert_eq!(listed["result"], state["status"]);
    // Replayed on the board from the start, and its record downloaded.
    let start = ok(&app, "POST", &format!("{url}/goto"), r#"{"ply": 0}"#, StatusCode::OK).await;
    assert_eq!(start["ply"], json!(0));
    let (status, record) = call(&app, "GET", &format!("{url}/record"), "").await;
    assert_eq!(status, StatusCode::OK);
    assert!(Record::parse(record.as_str().unwrap()).is_ok());
    ok(&app, "DELETE", &url, "", StatusCode::NO_CONTENT).await;
    let archive = ok(&app, "GET", "/api/archive", "", StatusCode::OK).await;
    assert_eq!(archive["games"], json!([]));
}

/// Sends a request with a seat's token.
async fn as_player(app: &Router, method: &str, uri: &str, token: &str, body: &str) -> (StatusCode, Value) {
    let bearer = format!("Bearer {token}");
    call_with(app, method, uri, &[("content-type", "application/json"), ("authorization", &bearer)], body).await
}

#[tokio::test]
async fn friends_hold_their_seats_take_back_by_agreement_and_resign() {
    let (app, _) = server(10, 10);
    let game = create(&app, json!({"rules": "kalah(4,3) standard", "friend": true})).await;
    let url = format!("/api/games/{}", id(&game));
    let (south, north) = (game["token"].as_str().unwrap().to_string(), game["invite"].as_str().unwrap().to_string());
    assert_ne!(south, north);
    assert_eq!(game["seats"], json!(["human", "human"]));
    assert_eq!(game["friends"], json!(true));
    // A watcher (no token) sees the game but moves for nobody; a seat moves only on its turn.
    let watched = ok(&app, "GET", &url, "", StatusCode::OK).await;
    assert!(watched.get("token").is_none() && watched.get("invite").is_none(), "no token in a state: {watched}");
    refused(&app, "POST", &format!("{url}/move"), r#"{"action": 1}"#, StatusCode::FORBIDDEN, "only the players").await;
    let (status, body) = as_player(&app, "POST", &format!("{url}/move"), &north, r#"{"action": 1}"#).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let (status, _) = as_player(&app, "POST", &format!("{url}/move"), "0123", r#"{"action": 1}"#).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    refused(&app, "POST", &format!("{url}/undo"), "", StatusCode::FORBIDDEN, "takeback").await;
    // A move carries its version and request id: sent again, it is answered, not played again.
    let play = json!({"action": 1, "version": 0, "request": "r1"}).to_string();
    let (status, first) = as_player(&app, "POST", &format!("{url}/move"), &south, &play).await;
    assert_eq!(status, StatusCode::OK, "{first}");
    let (status, again) = as_player(&app, "POST", &format!("{url}/move"), &south, &play).await;
    assert_eq!(status, StatusCode::OK, "{again}");
    assert_eq!(again["version"], first["version"], "a retried request is not played again");
    assert_eq!(again["ply"], json!(1));
    let stale = json!({"action": 2, "version": 0, "request": "r2"}).to_string();
    let (status, body) = as_player(&app, "POST", &format!("{url}/move"), &north, &stale).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    // North moves; South asks to take back, North refuses, South asks again, North accepts.
    let (status, _) = as_player(&app, "POST", &format!("{url}/move"), &north, r#"{"action": 1}"#).await;
    assert_eq!(status, StatusCode::OK);
    let takeback = format!("{url}/takeback");
    let (_, asked) = as_player(&app, "POST", &takeback, &south, "").await;
    assert_eq!(asked["takeback"], json!("South"), "{asked}");
    let (status, _) = as_player(&app, "POST", &takeback, &south, r#"{"answer": "accept"}"#).await;
    assert_eq!(status, StatusCode::CONFLICT, "the asker does not answer");
    let (_, refused_) = as_player(&app, "POST", &takeback, &north, r#"{"answer": "refuse"}"#).await;
    assert_eq!((refused_["takeback"].clone(), refused_["ply"].clone()), (Value::Null, json!(2)));
    as_player(&app, "POST", &takeback, &south, "").await;
    let (_, accepted) = as_player(&app, "POST", &takeback, &north, r#"{"answer": "accept"}"#).await;
    assert_eq!(accepted["ply"], json!(0), "South's move and North's reply are taken back: {accepted}");
    // North resigns: South wins, and the record says so.
    let (_, over) = as_player(&app, "POST", &format!("{url}/resign"), &north, "").await;
    assert_eq!(over["result"]["resigned"], json!("North"), "{over}");
    assert_eq!(over["result"]["winner"], json!("South"));
    let (_, record) = call(&app, "GET", &format!("{url}/record"), "").await;
    assert!(record.as_str().unwrap().contains("[Result \"south-wins\"]"), "{record}");
}

#[tokio::test]
async fn the_live_channel_sends_every_change_and_resumes() {
    use futures_util::StreamExt;
    let (app, _) = server(10, 10);
    let game = create(&app, json!({"rules": "kalah(4,3) standard", "friend": true})).await;
    let url = format!("/api/games/{}", id(&game));
    let south = game["token"].as_str().unwrap().to_string();
    let open = |after: Option<&str>| {
        let mut request = Request::builder().uri(format!("{url}/live"));
        if let Some(after) = after {
            request = request.header("last-event-id", after);
        }
        app.clone().oneshot(request.body(Body::empty()).unwrap())
    };
    let response = open(None).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let mut stream = response.into_body().into_data_stream();
    let mut next_event = async || -> String {
        let mut text = String::new();
        while !text.contains("\n\n") {
            let chunk = stream.next().await.expect("the stream goes on").expect("a chunk");
            text.push_str(&String::from_utf8_lossy(&chunk));
        }
        text
    };
    let first = next_event().await;
    assert!(first.contains("event: state") && first.contains("id: 0"), "{first}");
    as_player(&app, "POST", &format!("{url}/move"), &south, r#"{"action": 1}"#).await;
    let moved = next_event().await;
    assert!(moved.contains("id: 1") && moved.contains("\"ply\":1"), "{moved}");
    // A watcher that reconnects after event 0 gets the state at once; one up to date waits.
    let mut resumed = open(Some("0")).await.unwrap().into_body().into_data_stream();
    let chunk = resumed.next().await.unwrap().unwrap();
    assert!(String::from_utf8_lossy(&chunk).contains("\"ply\":1"));
}

#[tokio::test]
async fn a_rematch_swaps_the_sides_once_both_want_it() {
    let (app, _) = server(10, 10);
    let game = create(&app, json!({"rules": "kalah(4,3) standard", "friend": true, "clock": {"seconds": 60}})).await;
    let url = format!("/api/games/{}", id(&game));
    let (south, north) = (game["token"].as_str().unwrap().to_string(), game["invite"].as_str().unwrap().to_string());
    let (status, _) = as_player(&app, "POST", &format!("{url}/rematch"), &south, "").await;
    assert_eq!(status, StatusCode::CONFLICT, "not before the end");
    as_player(&app, "POST", &format!("{url}/resign"), &south, "").await;
    let (_, offered) = as_player(&app, "POST", &format!("{url}/rematch"), &north, "").await;
    assert_eq!((offered["rematch_offer"].clone(), offered["rematch"].clone()), (json!("North"), Value::Null));
    let agreeing = std::time::Instant::now();
    let (_, agreed) = as_player(&app, "POST", &format!("{url}/rematch"), &south, "").await;
    let next = format!("/api/games/{}", agreed["rematch"].as_str().expect("a rematch"));
    let state = ok(&app, "GET", &next, "", StatusCode::OK).await;
    assert_eq!(state["ply"], json!(0));
    // A new clock: South's runs from the rematch's start (a millisecond more may be counted).
    let spent = 60_000 - state["clock"]["south_ms"].as_u64().expect("South's clock");
    assert!(spent as u128 <= agreeing.elapsed().as_millis() + 1, "{state}");
    // The former North now holds South, and moves first.
    let (status, _) = as_player(&app, "POST", &format!("{next}/move"), &south, r#"{"action": 1}"#).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, body) = as_player(&app, "POST", &format!("{next}/move"), &north, r#"{"action": 1}"#).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

#[tokio::test]
async fn bad_bodies_are_refused_in_the_apis_words_and_long_ids_are_cut() {
    let (app, _) = server(10, 10);
    let game = create(&app, json!({"rules": "kalah(4,3) standard", "north": "human"})).await;
    let url = format!("/api/games/{}", id(&game));
    let cases = [
        ("move", r#"{"action": true}"#, "house number"),
        ("move", r#"{"action": 1, "version": -3}"#, "whole number"),
        ("undo", r#"{"plies": -1}"#, "whole number"),
        ("goto", r#"{"ply": "x"}"#, "whole number"),
        ("goto", r#""one""#, "{\"ply\": N}"),
        ("shown", r#"{"version": 1"#, "not valid JSON"),
        ("takeback", r#"{"answer": 3}"#, "accept"),
    ];
    for (what, body, says) in cases {
        let (status, value) = call(&app, "POST", &format!("{url}/{what}"), body).await;
        assert!(status.is_client_error(), "{what} {body}: {status}");
        let message = value["error"].as_str().unwrap_or_else(|| panic!("{what} {body}: {value}"));
        assert!(message.contains(says), "{what} {body}: {message:?} does not say {says:?}");
        for internal in ["ActionText", "untagged", "usize", "u64", "struct ", "line 1 column"] {
            assert!(!message.contains(internal), "{what} {body}: {message:?} names {internal:?}");
        }
        assert!(!message.contains('\n'), "one line: {message}");
    }
    let (_, value) = call(&app, "POST", "/api/games", r#"{"clock": {"seconds": "a minute"}}"#).await;
    let message = value["error"].as_str().unwrap();
    assert!(message.contains("whole number") && message.contains("clock"), "{message}");
    // An unknown id of 65,000 characters is not repeated whole.
    let long = "a".repeat(65_000);
    for path in [format!("/api/games/{long}"), format!("/api/games/{long}/move")] {
        let method = if path.ends_with("/move") { "POST" } else { "GET" };
        let (status, value) = call(&app, method, &path, r#"{"action": 1}"#).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let message = value["error"].as_str().unwrap();
        assert!(message.len() < 200 && message.contains("there is no game"), "{} characters", message.len());
    }
}

#[tokio::test]
async fn a_game_lost_on_time_cannot_be_stepped_back_and_its_record_loads_decided() {
    let (app, _) = server(10, 10);
    // North is to move from the start: a move of South's would have to come within South's second
    // (a slow machine could miss it), and stepping back is refused before it looks at the moves.
    let start = json!({
        "rules": "kalah(4,3) standard",
        "position": "3,3,3,3:0/3,3,3,3:0/N",
        "north": "human",
        "clock": {"seconds": 1}
    });
    let game = create(&app, start).await;
    let url = format!("/api/games/{}", id(&game));
    // Each first move is free (North's house 1 and South's end in the mover's own row).
    ok(&app, "POST", &format!("{url}/move"), r#"{"action": 1}"#, StatusCode::OK).await;
    ok(&app, "POST", &format!("{url}/move"), r#"{"action": 1}"#, StatusCode::OK).await;
    // North's second runs out (a hang guard, not a timing: the clock is the server's).
    let deadline = Instant::now() + Duration::from_secs(60);
    let over = loop {
        let state = ok(&app, "GET", &url, "", StatusCode::OK).await;
        if state["result"] != Value::Null {
            break state;
        }
        assert!(Instant::now() < deadline, "North's clock never ran out");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(over["result"]["lost_on_time"], "North", "{over}");
    for (what, body) in [("undo", ""), ("redo", ""), ("goto", r#"{"ply": 0}"#)] {
        refused(&app, "POST", &format!("{url}/{what}"), body, StatusCode::CONFLICT, "lost on time").await;
    }
    let after = ok(&app, "GET", &url, "", StatusCode::OK).await;
    assert_eq!((after["ply"].clone(), after["board"].clone()), (over["ply"].clone(), over["board"].clone()));
    // The record says who won and how; loaded, it is the same finished game.
    let (_, record) = call(&app, "GET", &format!("{url}/record"), "").await;
    let record = record.as_str().unwrap().to_string();
    assert!(record.contains("[Result \"south-wins\"]"), "{record}");
    let loaded = create(&app, json!({ "record": record })).await;
    assert_eq!(loaded["phase"], "over", "{loaded}");
    assert_eq!(loaded["result"]["winner"], "South");
    assert_eq!(loaded["result"]["lost_on_time"], "North");
    assert_eq!(loaded["legal"], json!([]));
    assert!(loaded["status"].as_str().unwrap().contains("Game over: North ran out of time; South wins."), "{loaded}");
    let loaded_url = format!("/api/games/{}", id(&loaded));
    refused(&app, "POST", &format!("{loaded_url}/move"), r#"{"action": 1}"#, StatusCode::BAD_REQUEST, "over").await;
    // A resignation loads as one.
    let record = record.replace("[Termination \"North ran out of time\"]", "[Termination \"North resigned\"]");
    let loaded = create(&app, json!({ "record": record })).await;
    assert_eq!(loaded["result"]["resigned"], "North", "{loaded}");
}

#[tokio::test]
async fn a_game_between_friends_gets_no_hint_or_analysis_until_it_is_over() {
    let (app, _) = server(10, 10);
    let game = create(&app, json!({"rules": "kalah(4,3) standard", "friend": true})).await;
    let url = format!("/api/games/{}", id(&game));
    for what in ["hint", "analysis"] {
        refused(&app, "GET", &format!("{url}/{what}"), "", StatusCode::FORBIDDEN, "no hint or analysis").await;
    }
    let south = game["token"].as_str().unwrap().to_string();
    let (status, _) = as_player(&app, "POST", &format!("{url}/resign"), &south, "").await;
    assert_eq!(status, StatusCode::OK);
    let analysis = ok(&app, "GET", &format!("{url}/analysis"), "", StatusCode::OK).await;
    assert_eq!(analysis["side"], "South", "{analysis}");
}

#[tokio::test]
async fn errors_before_the_router_are_one_line_of_json_with_the_security_headers() {
    use tokio::io::AsyncWriteExt;
    let address = listening(crate::ConnectionLimits::default()).await;
    let long = format!("GET /{} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(70_000));
    let many = format!("GET / HTTP/1.1\r\nHost: x\r\n{}\r\n", "X-A: b\r\n".repeat(200));
    for (request, status, says) in [
        ("GET / HTTP/1.1\r\nHost x\r\n\r\n".to_string(), "400", "malformed"),
        (long, "414", "address is too long"),
        (many, "431", "headers are too large or too many"),
    ] {
        let mut stream = tokio::net::TcpStream::connect(address).await.unwrap();
        stream.write_all(request.as_bytes()).await.unwrap();
        let answer = until_closed(&mut stream).await;
        assert!(answer.starts_with(&format!("HTTP/1.1 {status}")), "{answer}");
        let (head, body) = answer.split_once("\r\n\r\n").unwrap();
        for header in ["x-content-type-options: nosniff", "content-security-policy: ", "cache-control: no-store"] {
            assert!(head.contains(header), "{status}: no {header} in {head}");
        }
        let value: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{status}: {body:?}: {e}"));
        assert!(value["error"].as_str().unwrap().contains(says), "{status}: {body}");
    }
}

#[tokio::test]
async fn the_players_presence_reaches_the_spectators_and_each_other_live() {
    use futures_util::StreamExt;
    let (app, _) = server(10, 10);
    let game = create(&app, json!({"rules": "kalah(4,3) standard", "friend": true})).await;
    let url = format!("/api/games/{}", id(&game));
    let (south, north) = (game["token"].as_str().unwrap().to_string(), game["invite"].as_str().unwrap().to_string());
    let open = |seat: Option<&str>| {
        let mut request = Request::builder().uri(format!("{url}/live"));
        if let Some(token) = seat {
            request = request.header("authorization", format!("Bearer {token}"));
        }
        app.clone().oneshot(request.body(Body::empty()).unwrap())
    };
    // Reads events until a presence event, and returns its data.
    async fn presence(
        stream: &mut (impl futures_util::Stream<Item = Result<axum::body::Bytes, axum::Error>> + Unpin),
    ) -> Value {
        let mut text = String::new();
        loop {
            while let Some(end) = text.find("\n\n") {
                let event: String = text.drain(..end + 2).collect();
                if event.contains("event: presence") {
                    let data = event.lines().find_map(|l| l.strip_prefix("data: ")).unwrap();
                    return serde_json::from_str(data).unwrap();
                }
            }
            let chunk = stream.next().await.expect("the stream goes on").expect("a chunk");
            text.push_str(&String::from_utf8_lossy(&chunk));
        }
    }
    // Who is here, and on how many pages: the first player's second page is counted.
    let here = |south: usize, north: usize| json!({"south": south > 0, "north": north > 0, "pages": {"south": south, "north": north}});
    let mut watcher = open(None).await.unwrap().into_body().into_data_stream();
    assert_eq!(presence(&mut watcher).await, here(0, 0));
    let mut first = open(Some(&south)).await.unwrap().into_body().into_data_stream();
    assert_eq!(presence(&mut watcher).await, here(1, 0));
    assert_eq!(presence(&mut first).await, here(1, 0));
    let second = open(Some(&north)).await.unwrap().into_body().into_data_stream();
    assert_eq!(presence(&mut first).await, here(1, 1), "South sees North come");
    assert_eq!(presence(&mut watcher).await, here(1, 1));
    drop(second);
    assert_eq!(presence(&mut first).await, here(1, 0), "South sees North go");
    assert_eq!(presence(&mut watcher).await, here(1, 0));
    let again = open(Some(&south)).await.unwrap().into_body().into_data_stream();
    assert_eq!(presence(&mut first).await, here(2, 0), "South sees its own second page");
    assert_eq!(presence(&mut watcher).await, here(2, 0));
    drop(again);
    assert_eq!(presence(&mut first).await, here(1, 0), "and its going");
    // A token of no seat is refused; a token in the address (which proxies log) is refused
    // before it is read.
    let (status, _) = call_with(&app, "GET", &format!("{url}/live"), &[("authorization", "Bearer 0123")], "").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, body) = call_with(&app, "GET", &format!("{url}/live?seat={south}"), &[], "").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["error"].as_str().unwrap().contains("send it as Authorization: Bearer"), "{body}");
}

#[tokio::test]
async fn the_status_names_the_players_as_people_read_them() {
    let (app, _) = server(10, 10);
    let game = create(&app, json!({"rules": "kalah(4,3) standard", "south": "engine:2"})).await;
    assert_eq!(game["status"], "South (engine level 2) to move");
    assert_eq!(game["players"]["south"], "engine:2", "the API's players keep their machine names");
    // A person is the side alone: "human" is the API's word, not a player's name.
    let game = create(&app, json!({"rules": "kalah(4,3) standard pie", "north": "human"})).await;
    assert_eq!(game["status"], "South to move");
    assert_eq!(game["players"]["south"], "human");
    let url = format!("/api/games/{}/move", id(&game));
    let pie = ok(&app, "POST", &url, r#"{"action": 1}"#, StatusCode::OK).await;
    assert_eq!(pie["status"], "North to move: sow a house, or swap sides");
    let game = create(&app, json!({"rules": "kalah(4,3) standard handicap", "north": "human"})).await;
    assert_eq!(game["status"], "North decides the handicap: keep the board, or move one seed");
}

/// A request that may change a game runs to its end even if its client goes while it waits
/// (for the database, say): it would otherwise be dropped between storing a change and marking
/// it stored. A `GET` is dropped with its client.
#[tokio::test]
async fn a_changing_request_runs_to_its_end_when_its_client_goes() {
    use tokio::sync::{oneshot, Mutex};
    for (method, runs_on) in [("POST", true), ("GET", false)] {
        let (started, mut has_started) = tokio::sync::mpsc::unbounded_channel::<()>();
        let (go, waiting) = oneshot::channel::<()>();
        let (finished, has_finished) = oneshot::channel::<()>();
        let held = Arc::new(Mutex::new(Some((waiting, finished))));
        let handler = move || {
            let (held, started) = (Arc::clone(&held), started.clone());
            async move {
                let (waiting, finished) = held.lock().await.take().expect("one request");
                let _ = started.send(());
                let _ = waiting.await;
                let _ = finished.send(());
            }
        };
        let app = Router::new()
            .route("/", axum::routing::any(handler))
            .layer(axum::middleware::from_fn(crate::middleware::whole));
        let request = Request::builder().method(method).uri("/").body(Body::empty()).unwrap();
        let client = tokio::spawn(app.oneshot(request));
        has_started.recv().await.expect("the handler starts");
        // The client goes while the handler waits.
        client.abort();
        assert!(client.await.unwrap_err().is_cancelled());
        let _ = go.send(());
        assert_eq!(has_finished.await.is_ok(), runs_on, "{method}");
    }
}

#[tokio::test]
async fn a_stranger_who_knows_a_games_id_watches_it_and_changes_nothing() {
    let (app, _) = server(10, 10);
    let stranger = [("content-type", "application/json")];
    // A game against the engine: only its creator's token changes it.
    let game = create(&app, json!({"rules": "kalah(4,3) standard", "north": "engine:1"})).await;
    assert!(game["token"].is_string() && game.get("invite").is_none(), "{game}");
    let url = format!("/api/games/{}", id(&game));
    ok(&app, "POST", &format!("{url}/move"), r#"{"action": 1}"#, StatusCode::OK).await;
    for (method, path, body) in [
        ("DELETE", url.clone(), ""),
        ("POST", format!("{url}/undo"), ""),
        ("POST", format!("{url}/engine"), ""),
        ("POST", format!("{url}/goto"), r#"{"ply": 0}"#),
    ] {
        let (status, answer) = call_with(&app, method, &path, &stranger, body).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{method} {path}: {answer}");
        assert!(answer["error"].as_str().unwrap().contains("only the players"), "{answer}");
    }
    let (status, _) = call_with(&app, "GET", &url, &stranger, "").await;
    assert_eq!(status, StatusCode::OK, "watching needs no token");
    let wrong = [("content-type", "application/json"), ("authorization", "Bearer 0123")];
    let (status, _) = call_with(&app, "DELETE", &url, &wrong, "").await;
    assert_eq!(status, StatusCode::FORBIDDEN, "a token of no seat");
    // A game between friends in progress: no stranger deletes it, and once both have moved
    // neither player does alone (they resign); a finished one stays for both.
    let game = create(&app, json!({"rules": "kalah(4,3) standard", "friend": true})).await;
    let (south, north) = (game["token"].as_str().unwrap().to_string(), game["invite"].as_str().unwrap().to_string());
    let url = format!("/api/games/{}", id(&game));
    let (status, _) = call_with(&app, "DELETE", &url, &stranger, "").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    as_player(&app, "POST", &format!("{url}/move"), &south, r#"{"action": 1}"#).await;
    as_player(&app, "POST", &format!("{url}/move"), &north, r#"{"action": 1}"#).await;
    let (status, answer) = as_player(&app, "DELETE", &url, &south, "").await;
    assert_eq!(status, StatusCode::CONFLICT, "{answer}");
    as_player(&app, "POST", &format!("{url}/resign"), &south, "").await;
    let (status, answer) = as_player(&app, "DELETE", &url, &north, "").await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{answer}");
    assert!(answer["error"].as_str().unwrap().contains("belongs to both players"), "{answer}");
    ok(&app, "GET", &url, "", StatusCode::OK).await;
    // The creator deletes the game against the engine.
    let game = create(&app, json!({"rules": "kalah(4,3) standard"})).await;
    let url = format!("/api/games/{}", id(&game));
    ok(&app, "DELETE", &url, "", StatusCode::NO_CONTENT).await;
}

/// Drops what differs between hosts by nature from a state: the id, the tokens and the clocks'
/// milliseconds (each host reads its own clock); what remains must be the same.
fn comparable(mut state: Value) -> Value {
    let object = state.as_object_mut().expect("a state is an object");
    for key in ["id", "token", "invite"] {
        object.remove(key);
    }
    if let Some(clock) = object.get_mut("clock").and_then(Value::as_object_mut) {
        clock.remove("south_ms");
        clock.remove("north_ms");
    }
    state
}

/// Plays `script` on game `request` through the server's API and through the static site's page
/// (kalah-wasm's `Page`, the module's Rust run natively), comparing the states after every step
/// and the refusals: `m` plays a person's action (the `k`-th legal one, `k` counting the steps),
/// `e` the engine's (the action the server's engine chose is played on the page too), `u`/`r`
/// undo and redo, `g` a goto to the middle of the line, `s` says the move was shown, `x` sends a
/// move that cannot be read. Returns the last state.
async fn both_hosts(app: &Router, request: &Value, script: &str) -> Value {
    use kalah_table::route::Route;
    use kalah_table::Moment;
    use kalah_wasm::page::Page;

    let body = request.to_string();
    let served = create(app, request.clone()).await;
    let url = format!("/api/games/{}", id(&served));
    let mut page = Page::create("page", &body, Moment::now()).expect("the page starts the same game");
    let state = |page: &Page| serde_json::to_value(page.state(Moment::now())).unwrap();
    let mut last = served;
    assert_eq!(comparable(last.clone()), comparable(state(&page)), "{body}: the new game");
    for (k, step) in script.chars().enumerate() {
        let legal = last["legal"].as_array().cloned().unwrap_or_default();
        let (route, what, sent) = match step {
            'm' if !legal.is_empty() => {
                (Route::Move, "move", json!({"action": legal[k % legal.len()], "version": last["version"]}).to_string())
            }
            'm' => (Route::Move, "move", r#"{"action": 1}"#.to_string()),
            'x' => (Route::Move, "move", r#"{"action": "sow"}"#.to_string()),
            'u' => (Route::Undo, "undo", String::new()),
            'r' => (Route::Redo, "redo", String::new()),
            'g' => {
                (Route::Goto, "goto", json!({"ply": last["moves"].as_array().map_or(0, |m| m.len() / 2)}).to_string())
            }
            's' => (Route::Shown, "shown", json!({"version": last["version"]}).to_string()),
            'e' => {
                let (status, answer) = call(app, "POST", &format!("{url}/engine"), "").await;
                let turn = page.engine_turn(Moment::now());
                match turn {
                    Ok(turn) => {
                        assert_eq!(status, StatusCode::OK, "{body} step {k}: {answer}");
                        let action = answer["last"]["action"].as_str().expect("the engine's action");
                        page.play_engine(turn.version, action, Moment::now()).expect("the page plays it");
                    }
                    Err(refused) => {
                        assert_eq!(status.as_u16(), refused.status(), "{body} step {k}: {answer}");
                        assert_eq!(answer["error"], refused.to_string(), "{body} step {k}");
                        page.stop_thinking(page.table().version());
                    }
                }
                let (_, shown) = call(app, "GET", &url, "").await;
                assert_eq!(comparable(shown.clone()), comparable(state(&page)), "{body} step {k}: the engine");
                last = shown;
                continue;
            }
            other => panic!("no step {other:?}"),
        };
        let (status, answer) = call(app, "POST", &format!("{url}/{what}"), &sent).await;
        let done = page.request(route, &sent, Moment::now());
        match &done {
            Ok(()) => assert_eq!(status, StatusCode::OK, "{body} step {k} {what} {sent}: {answer}"),
            Err(refused) => {
                assert_eq!(status.as_u16(), refused.status(), "{body} step {k} {what} {sent}: {answer}");
                assert_eq!(answer["error"], refused.to_string(), "{body} step {k}");
            }
        }
        let (_, shown) = call(app, "GET", &url, "").await;
        assert_eq!(comparable(shown.clone()), comparable(state(&page)), "{body} step {k}: {what} {sent}");
        last = shown;
    }
    last
}

#[tokio::test]
async fn the_server_and_the_static_sites_page_give_the_same_states() {
    let (app, _) = server(10, 100);
    // Against the engine, at one page, under every rule word, with undo, redo, goto and refusals.
    let rules = [
        "kalah(4,3) standard",
        "kalah(6,4) standard pie",
        "kalah(5,3) capture=empty end=side-empty leftover=owner direction=cw sowing=relay",
        "kalah(4,4) standard handicap",
        "kalah(3,3) capture=none leftover=discard sowing=single",
    ];
    for rule in rules {
        let engine = json!({"rules": rule, "north": "engine:1"});
        both_hosts(&app, &engine, "xmeumeurrmemeemegmem").await;
        let people = json!({"rules": rule, "south": "human", "north": "human"});
        let last = both_hosts(&app, &people, &"mmmumrgmmsmm".repeat(4)).await;
        assert!(last["moves"].as_array().is_some_and(|m| !m.is_empty()));
        let engines = json!({"rules": rule, "south": "engine:1", "north": "engine:2"});
        both_hosts(&app, &engines, &"e".repeat(12)).await;
    }
    // A timed game: the clocks wait for both first moves, then run (the milliseconds are each
    // host's own).
    let timed = json!({"rules": "kalah(4,3) standard", "north": "human", "clock": {"seconds": 600, "increment": 2}});
    let last = both_hosts(&app, &timed, "smsmsmsmsmum").await;
    assert_eq!(last["clock"]["running"], last["to_move"]);
    // Records decided by a resignation and by a loss on time load as the same finished games.
    let friends = create(&app, json!({"rules": "kalah(4,3) standard", "friend": true})).await;
    let (south, north) =
        (friends["token"].as_str().unwrap().to_string(), friends["invite"].as_str().unwrap().to_string());
    let url = format!("/api/games/{}", id(&friends));
    // South's house 1 ends in its own row: North is to move, and resigns (or runs out of time).
    as_player(&app, "POST", &format!("{url}/move"), &south, r#"{"action": 1}"#).await;
    as_player(&app, "POST", &format!("{url}/resign"), &north, "").await;
    let (_, record) = call(&app, "GET", &format!("{url}/record"), "").await;
    let record = record.as_str().unwrap().to_string();
    assert!(record.contains("resigned"), "{record}");
    let resigned = both_hosts(&app, &json!({ "record": record }), "mur").await;
    assert_eq!(resigned["result"]["resigned"], "North", "{resigned}");
    let on_time = record.replace("North resigned", "North ran out of time");
    let lost = both_hosts(&app, &json!({ "record": on_time }), "mug").await;
    assert_eq!(lost["result"]["lost_on_time"], "North", "{lost}");
}
