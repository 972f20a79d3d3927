//! What every clause of one message is understood against: its language, the session's
//! uploads (and those this message names), recent history and the conversation state.

use super::conversation::Conversation;
use super::text::Lang;
use super::{HistoryTurn, UploadRef};

/// Context shared by all clauses of one message.
pub struct MessageCtx<'a> {
    pub lang: Lang,
    pub uploads: &'a [UploadRef],
    pub referenced: Vec<&'a UploadRef>,
    pub history: &'a [HistoryTurn],
    pub conv: &'a Conversation,
}
