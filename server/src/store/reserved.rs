//! Sessions shown to a client but not stored yet: a connection is given a session id at
//! HELLO (or in the legacy welcome) and the row is written on first use. Until then the id
//! is remembered here, in memory and bounded (the oldest are forgotten first), so another
//! connection of the same owner can still resume it by its full id (a script that reads the
//! id and passes it to its next command). Nothing reaches the database from here.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use super::Owner;

/// Ids remembered at most (about 200 bytes each).
pub const RESERVED_KEPT: usize = 4096;

/// A reserved session's name and creation time, shown as if it were stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reserved {
    pub name: String,
    pub created_at: String,
}

#[derive(Default)]
struct Inner {
    by_id: HashMap<String, (Owner, Reserved)>,
    order: VecDeque<String>,
}

/// The reserved sessions of all connections.
#[derive(Default)]
pub struct Reservations {
    inner: Mutex<Inner>,
}

impl Reservations {
    /// Remembers `id` as `owner`'s reserved session.
    pub fn remember(&self, owner: &Owner, id: &str, r: &Reserved) {
        let mut g = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        if g.by_id
            .insert(id.to_string(), (owner.clone(), r.clone()))
            .is_none()
        {
            g.order.push_back(id.to_string());
        }
        while g.order.len() > RESERVED_KEPT {
            if let Some(old) = g.order.pop_front() {
                g.by_id.remove(&old);
            }
        }
    }

    /// `owner`'s reserved session `id` (a full id; another owner's is never found).
    pub fn find(&self, owner: &Owner, id: &str) -> Option<Reserved> {
        let g = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        match g.by_id.get(id.trim()) {
            Some((o, r)) if o == owner => Some(r.clone()),
            _ => None,
        }
    }

    /// `owner`'s one reserved session whose id starts with `prefix`, if exactly one does.
    pub fn find_prefix(&self, owner: &Owner, prefix: &str) -> Option<String> {
        let g = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let prefix = prefix.trim();
        let mut hits = g
            .by_id
            .iter()
            .filter(|(id, (o, _))| o == owner && !prefix.is_empty() && id.starts_with(prefix));
        match (hits.next(), hits.next()) {
            (Some((id, _)), None) => Some(id.clone()),
            _ => None,
        }
    }

    /// Forgets `id` (it was stored, or deleted before it was).
    pub fn forget(&self, id: &str) {
        let mut g = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        if g.by_id.remove(id).is_some() {
            g.order.retain(|x| x != id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(name: &str) -> Reserved {
        Reserved {
            name: name.into(),
            created_at: "2024-01-01T00:00:00+00:00".into(),
        }
    }

    #[test]
    fn a_reserved_id_is_found_by_its_owner_only_and_the_oldest_go_first() {
        let res = Reservations::default();
        let (alice, bob) = (Owner::named("alice"), Owner::local_user(1002));
        res.remember(&alice, "a1", &r("one"));
        assert_eq!(res.find(&alice, "a1"), Some(r("one")));
        assert_eq!(res.find(&bob, "a1"), None);
        res.forget("a1");
        assert_eq!(res.find(&alice, "a1"), None);
        for i in 0..RESERVED_KEPT + 10 {
            res.remember(&bob, &format!("b{i}"), &r("x"));
        }
        assert_eq!(res.find(&bob, "b0"), None, "the oldest is forgotten");
        assert!(res.find(&bob, &format!("b{}", RESERVED_KEPT + 9)).is_some());
    }
}
