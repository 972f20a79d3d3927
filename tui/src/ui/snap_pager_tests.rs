//! Snapshot tests of the views added for long nights: the pager over a tool output with a
//! search, the pager over an answer, the session picker (with its delete question), the
//! search hit viewer, the "did you mean" question, a selected message, and a Tab
//! completion listing.

use protocol::{Message, SearchHit, SearchResults};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::app::pager::tests::{page, sessions, tool_turn};
use crate::app::tests::{connected, ctrl, key, submit, type_str};
use crate::app::{update, App, AppEvent, Req};
use crate::client::ClientEvent;

fn draw(app: &App, w: u16, h: u16) -> String {
    super::tests::draw(app, w, h)
        .into_iter()
        .map(|s| format!("|{s}|\n"))
        .collect()
}

fn alt_up(a: &mut App) {
    update(
        a,
        AppEvent::Key(KeyEvent::new(KeyCode::Up, KeyModifiers::ALT)),
    );
}

#[test]
fn pager_tool_output_with_search() {
    let mut a = connected();
    tool_turn(&mut a, 120);
    alt_up(&mut a);
    alt_up(&mut a);
    update(&mut a, key(KeyCode::Enter));
    update(&mut a, page(0, 0, 120, 120));
    update(&mut a, key(KeyCode::Char('/')));
    type_str(&mut a, "nginx");
    update(&mut a, key(KeyCode::Enter));
    update(&mut a, key(KeyCode::Char('n')));
    insta::assert_snapshot!(draw(&a, 100, 24));
}

#[test]
fn pager_search_prompt_over_the_transcript() {
    let mut a = connected();
    tool_turn(&mut a, 3);
    update(&mut a, ctrl('f'));
    type_str(&mut a, "ngi");
    insta::assert_snapshot!(draw(&a, 80, 20));
}

#[test]
fn selected_answer_in_the_chat() {
    let mut a = connected();
    tool_turn(&mut a, 3);
    alt_up(&mut a);
    insta::assert_snapshot!(draw(&a, 120, 30));
}

#[test]
fn session_picker_and_delete_question() {
    let mut a = connected();
    submit(&mut a, "/sessions");
    update(
        &mut a,
        AppEvent::Reply {
            req: Req::Session(protocol::SessionOp::List),
            result: Ok(Message::SessionReply(protocol::SessionReply {
                request_id: 1,
                op: "list".into(),
                current: sessions()[0].clone(),
                sessions: sessions(),
            })),
        },
    );
    insta::assert_snapshot!("session_picker", draw(&a, 100, 24));
    update(&mut a, key(KeyCode::Down));
    update(&mut a, ctrl('d'));
    insta::assert_snapshot!("session_picker_delete", draw(&a, 100, 24));
}

#[test]
fn search_hit_viewer() {
    let mut a = connected();
    update(
        &mut a,
        AppEvent::Client(ClientEvent::Message(Message::SearchResults(SearchResults {
            request_id: None,
            query: "worker processes".into(),
            scope: "all".into(),
            results: vec![SearchHit {
                filename: "nginx.md".into(),
                filepath: "/srv/docs/nginx.md".into(),
                similarity: 0.82,
                chunk: "## Tuning\nworker_processes auto;\nSet the worker processes to the number of cores.\n磁盘满时 nginx 日志写不进去".into(),
                position: "lines 40-43".into(),
                match_type: "hybrid".into(),
                file_id: None,
            }],
        }))),
    );
    a.focus = crate::keymap::Pane::Search;
    update(&mut a, key(KeyCode::Enter));
    update(&mut a, key(KeyCode::Char('n')));
    insta::assert_snapshot!(draw(&a, 100, 16));
}

#[test]
fn search_hit_region_with_the_chunk_marked() {
    let mut a = connected();
    crate::app::pager::tests::open_hit(&mut a);
    update(&mut a, crate::app::pager::tests::region_reply());
    insta::assert_snapshot!(draw(&a, 100, 20));
}

#[test]
fn did_you_mean_question() {
    let mut a = connected();
    submit(&mut a, "/serch disk full");
    insta::assert_snapshot!(draw(&a, 100, 20));
}

#[test]
fn tab_completion_candidates() {
    let mut a = connected();
    type_str(&mut a, "/s");
    update(&mut a, key(KeyCode::Tab));
    insta::assert_snapshot!(draw(&a, 100, 12));
}
