//! PowerPoint presentations to text.
use crate::cancel::Cancel;
use crate::error::{Error, Result};
use crate::office::archive::Limits;

pub fn to_text(_bytes: &[u8], _limits: Limits, _cancel: &Cancel) -> Result<String> {
    Err(Error::conversion("PowerPoint files are not read yet"))
}
