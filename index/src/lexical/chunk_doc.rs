//! A chunk as a tantivy document without copies: its text is read by all six text fields
//! (stored body, jieba, bigrams, English, identifiers, joined identifier words) from the
//! one `String` the chunker made, where `doc!` copied it into each field (a copy of a
//! file's text per field held while it is indexed).

use tantivy::schema::document::{Document, ReferenceValue, ReferenceValueLeaf, Value};
use tantivy::schema::Field;

use super::{ChunkDoc, Fields};

/// One chunk handed to the index writer (owns the chunk, borrows nothing).
pub(super) struct IndexedChunk {
    pub(super) f: Fields,
    pub(super) c: ChunkDoc,
}

/// A field's value, borrowed from the chunk.
#[derive(Debug, Clone, Copy)]
pub(super) enum ChunkValue<'a> {
    Str(&'a str),
    U64(u64),
}

impl<'a> Value<'a> for ChunkValue<'a> {
    type ArrayIter = std::iter::Empty<Self>;
    type ObjectIter = std::iter::Empty<(&'a str, Self)>;

    fn as_value(&self) -> ReferenceValue<'a, Self> {
        ReferenceValue::Leaf(match *self {
            ChunkValue::Str(s) => ReferenceValueLeaf::Str(s),
            ChunkValue::U64(n) => ReferenceValueLeaf::U64(n),
        })
    }
}

/// Fields in schema order (tantivy sorts them anyway).
const FIELDS: usize = 15;

impl Document for IndexedChunk {
    type Value<'a> = ChunkValue<'a>;
    type FieldsValuesIter<'a> = std::array::IntoIter<(Field, ChunkValue<'a>), FIELDS>;

    fn iter_fields_and_values(&self) -> Self::FieldsValuesIter<'_> {
        let (f, c) = (&self.f, &self.c);
        let text = ChunkValue::Str(c.text.as_str());
        let ctx = ChunkValue::Str(c.context.as_str());
        [
            (f.chunk_id, ChunkValue::U64(c.chunk_id)),
            (f.doc_key, ChunkValue::Str(c.doc_key.as_str())),
            (f.tag, ChunkValue::Str(c.tag.as_str())),
            (f.ord, ChunkValue::U64(u64::from(c.ord))),
            (f.first_line, ChunkValue::U64(u64::from(c.first_line))),
            (f.last_line, ChunkValue::U64(u64::from(c.last_line))),
            (f.body, text),
            (f.zh, text),
            (f.bigram, text),
            (f.en, text),
            (f.ident, text),
            (f.ident_join, text),
            // The blocks a chunk's keys sit in (`analyzers::keypath::chunk_context`):
            // identifiers (whole and joined) and words.
            (f.context, ctx),
            (f.ident, ctx),
            (f.ident_join, ctx),
        ]
        .into_iter()
    }
}
