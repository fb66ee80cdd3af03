//! The SQL both databases run for the lobby's tables ([`crate::players`]): a statement is
//! written once, in PostgreSQL's form (`$1`, `$2`…, types both know: `BIGINT`, `DOUBLE
//! PRECISION`, `TEXT`), and SQLite runs it with its placeholders renamed (`?1`, `?2`…). A
//! query returns its rows as [`Value`]s; a write is a list of statements run in one
//! transaction, each with the number of rows it must change, so that a change made on values
//! read before commits only if they are still as read (optimistic concurrency): several
//! servers sharing PostgreSQL settle two games of one player at once without losing either.

use rusqlite::types::{ToSqlOutput, ValueRef};
use tokio_postgres::types::{IsNull, ToSql, Type};

use crate::store::{Store, StoreError};

/// A value bound to a statement or read from a row.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// An integer (`BIGINT`).
    Int(i64),
    /// A real number (`DOUBLE PRECISION`).
    Real(f64),
    /// Text.
    Text(String),
    /// `NULL`.
    Null,
}

impl Value {
    /// The integer, or 0 for anything else.
    pub fn int(&self) -> i64 {
        match self {
            Value::Int(n) => *n,
            Value::Real(x) => *x as i64,
            _ => 0,
        }
    }

    /// The real number, or 0 for anything else.
    pub fn real(&self) -> f64 {
        match self {
            Value::Real(x) => *x,
            Value::Int(n) => *n as f64,
            _ => 0.0,
        }
    }

    /// The text, or `""` for anything else.
    pub fn text(&self) -> &str {
        match self {
            Value::Text(text) => text,
            _ => "",
        }
    }

    /// Tells whether the value is `NULL`.
    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }
}

impl From<i64> for Value {
    fn from(n: i64) -> Value {
        Value::Int(n)
    }
}

impl From<f64> for Value {
    fn from(x: f64) -> Value {
        Value::Real(x)
    }
}

impl From<&str> for Value {
    fn from(text: &str) -> Value {
        Value::Text(text.to_string())
    }
}

impl From<String> for Value {
    fn from(text: String) -> Value {
        Value::Text(text)
    }
}

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match self {
            Value::Int(n) => ToSqlOutput::from(*n),
            Value::Real(x) => ToSqlOutput::from(*x),
            Value::Text(text) => ToSqlOutput::from(text.as_str()),
            Value::Null => ToSqlOutput::from(rusqlite::types::Null),
        })
    }
}

impl ToSql for Value {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut tokio_postgres::types::private::BytesMut,
    ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match self {
            Value::Int(n) if *ty == Type::INT4 => (*n as i32).to_sql(ty, out),
            Value::Int(n) if *ty == Type::BOOL => (*n != 0).to_sql(ty, out),
            Value::Int(n) => n.to_sql(ty, out),
            Value::Real(x) => x.to_sql(ty, out),
            Value::Text(text) => text.to_sql(ty, out),
            Value::Null => Ok(IsNull::Yes),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    tokio_postgres::types::to_sql_checked!();
}

/// One statement of a write, and the number of rows it must change (`None`: any).
#[derive(Clone, Debug)]
pub struct Statement {
    /// The SQL, in PostgreSQL's form.
    pub sql: &'static str,
    /// Its parameters.
    pub params: Vec<Value>,
    /// The rows it must change for the write to commit.
    pub changes: Option<u64>,
}

impl Statement {
    /// A statement that must change exactly `changes` rows.
    pub fn exactly(sql: &'static str, params: Vec<Value>, changes: u64) -> Statement {
        Statement { sql, params, changes: Some(changes) }
    }

    /// A statement that may change any number of rows.
    pub fn any(sql: &'static str, params: Vec<Value>) -> Statement {
        Statement { sql, params, changes: None }
    }
}

/// Renames PostgreSQL's placeholders (`$1`) to SQLite's (`?1`).
fn for_sqlite(sql: &str) -> String {
    sql.replace('$', "?")
}

impl Store {
    /// Runs the query `sql` with `params`; returns its rows.
    pub async fn rows(&self, sql: &'static str, params: Vec<Value>) -> Result<Vec<Vec<Value>>, StoreError> {
        if let Some(connection) = self.sqlite() {
            let connection = crate::store::locked(connection);
            let mut statement = connection.prepare_cached(&for_sqlite(sql))?;
            let width = statement.column_count();
            let rows = statement.query_map(rusqlite::params_from_iter(params.iter()), |row| {
                (0..width)
                    .map(|i| {
                        Ok(match row.get_ref(i)? {
                            ValueRef::Integer(n) => Value::Int(n),
                            ValueRef::Real(x) => Value::Real(x),
                            ValueRef::Text(text) => Value::Text(String::from_utf8_lossy(text).into_owned()),
                            ValueRef::Blob(_) | ValueRef::Null => Value::Null,
                        })
                    })
                    .collect::<rusqlite::Result<Vec<Value>>>()
            })?;
            return Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?);
        }
        let postgres = self.shared().expect("a store is SQLite or PostgreSQL");
        postgres.rows(sql, params).await
    }

    /// Runs `statements` in one transaction; commits and returns `true` if each changed the rows
    /// it must, else rolls back and returns `false`.
    pub async fn write(&self, statements: Vec<Statement>) -> Result<bool, StoreError> {
        if let Some(connection) = self.sqlite() {
            let mut connection = crate::store::locked(connection);
            let transaction = connection.transaction()?;
            for statement in &statements {
                let changed = transaction
                    .prepare_cached(&for_sqlite(statement.sql))?
                    .execute(rusqlite::params_from_iter(statement.params.iter()))?;
                if statement.changes.is_some_and(|n| n != changed as u64) {
                    return Ok(false);
                }
            }
            transaction.commit()?;
            return Ok(true);
        }
        let postgres = self.shared().expect("a store is SQLite or PostgreSQL");
        postgres.write(statements).await
    }
}

/// Reads a PostgreSQL row as [`Value`]s, by its columns' types.
pub(crate) fn values(row: &tokio_postgres::Row) -> Vec<Value> {
    (0..row.len())
        .map(|i| {
            let ty = row.columns()[i].type_();
            let value = if *ty == Type::INT8 {
                row.get::<_, Option<i64>>(i).map(Value::Int)
            } else if *ty == Type::INT4 {
                row.get::<_, Option<i32>>(i).map(|n| Value::Int(n.into()))
            } else if *ty == Type::BOOL {
                row.get::<_, Option<bool>>(i).map(|b| Value::Int(b.into()))
            } else if *ty == Type::FLOAT8 {
                row.get::<_, Option<f64>>(i).map(Value::Real)
            } else {
                row.get::<_, Option<String>>(i).map(Value::Text)
            };
            value.unwrap_or(Value::Null)
        })
        .collect()
}

/// The parameters of a PostgreSQL statement.
pub(crate) fn bound(params: &[Value]) -> Vec<&(dyn ToSql + Sync)> {
    params.iter().map(|p| p as &(dyn ToSql + Sync)).collect()
}
