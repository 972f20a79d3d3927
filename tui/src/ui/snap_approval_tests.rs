//! Snapshot tests of the approval modal (with a queue and the lifetime choice) and the
//! `/grants` list.

use protocol::{GrantLifetime, Message};
use ratatui::crossterm::event::KeyCode;

use crate::app::tests::approvals::{grant, request};
use crate::app::tests::{connected, key, start_turn, turn};
use crate::app::{update, AppEvent, Req};

fn draw(app: &crate::app::App, w: u16, h: u16) -> String {
    super::tests::draw(app, w, h)
        .into_iter()
        .map(|s| format!("|{s}|\n"))
        .collect()
}

#[test]
fn approval_modal() {
    let mut a = connected();
    a.unix_now = 1_000_000;
    start_turn(&mut a, "stop the runaway worker", 7);
    turn(&mut a, request("a1", 7, &["kill", "-TERM", "4242"]));
    turn(&mut a, request("a2", 7, &["kill", "-TERM", "4243"]));
    insta::assert_snapshot!(draw(&a, 100, 30));
    update(&mut a, key(KeyCode::Char('a')));
    insta::assert_snapshot!("approval_modal_choosing_lifetime", draw(&a, 100, 30));
}

#[test]
fn approval_modal_long_argument_is_marked_not_cut() {
    let mut a = connected();
    a.unix_now = 1_000_000;
    start_turn(&mut a, "rotate", 7);
    let long = format!("--unit={}", "x".repeat(150));
    turn(
        &mut a,
        request("a1", 7, &["rotate-logs", &long, "my service"]),
    );
    insta::assert_snapshot!(draw(&a, 80, 30));
}

#[test]
fn grants_list() {
    let mut a = connected();
    update(
        &mut a,
        AppEvent::Reply {
            req: Req::Grants,
            result: Ok(Message::Grants(protocol::Grants {
                request_id: 3,
                grants: vec![
                    grant("g1", "kill -TERM {pid}", GrantLifetime::Session, 2),
                    grant(
                        "g2",
                        "systemctl restart nginx.service",
                        GrantLifetime::UntilRevoked,
                        0,
                    ),
                ],
            })),
        },
    );
    update(&mut a, key(KeyCode::Down));
    insta::assert_snapshot!(draw(&a, 120, 20));
}
