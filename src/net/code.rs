//! The code a host reads out to a friend: a number and two words (`7-maple-anchor`), new for
//! every game. It is the password of the key exchange, so it is only as strong as the number
//! of codes (99 × 256 × 256, about 6.5 million) against the one guess a host allows.

use std::fmt;
use std::str::FromStr;

use rand_core::{OsRng, RngCore};

/// Two hundred and fifty-six short words, easy to say and to type, none a prefix of another.
const WORDS: [&str; 256] = [
    "acorn", "admiral", "almond", "amber", "anchor", "angel", "apple", "apron", "arrow", "atlas",
    "autumn", "badger", "bagel", "bamboo", "banjo", "barley", "basil", "beacon", "beaver", "berry",
    "bishop", "blanket", "blossom", "bonnet", "bottle", "bramble", "breeze", "bridge", "bronze",
    "bubble", "bucket", "buffalo", "butter", "cabin", "cactus", "camel", "candle", "canyon",
    "carrot", "castle", "cedar", "cello", "cherry", "chimney", "cider", "cinder", "circus",
    "clover", "cobalt", "coconut", "comet", "copper", "coral", "cotton", "cougar", "crayon",
    "cricket", "crystal", "cupcake", "dahlia", "daisy", "dancer", "delta", "denim", "desert",
    "dolphin", "donkey", "dragon", "drummer", "eagle", "easel", "ebony", "echo", "eclipse",
    "elbow", "ember", "emerald", "engine", "falcon", "feather", "fennel", "ferry", "fiddle",
    "finch", "flannel", "forest", "fossil", "fountain", "fox", "garden", "garlic", "gazelle",
    "ginger", "glacier", "goblet", "gopher", "granite", "gravel", "guitar", "hammer", "harbor",
    "harvest", "hazel", "hedgehog", "helmet", "heron", "hickory", "honey", "horizon", "iceberg",
    "igloo", "indigo", "iris", "island", "ivory", "jackal", "jasmine", "jelly", "jigsaw",
    "juniper", "kayak", "kernel", "kettle", "kiwi", "koala", "ladder", "lagoon", "lantern", "lava",
    "lemon", "lentil", "lilac", "lobster", "locket", "lotus", "magnet", "mango", "maple", "marble",
    "meadow", "melon", "meteor", "mint", "mitten", "monsoon", "moose", "mosaic", "muffin",
    "mustard", "nectar", "needle", "nickel", "nugget", "nutmeg", "oasis", "oboe", "ocean", "olive",
    "onion", "orbit", "orchid", "otter", "oyster", "paddle", "panda", "panther", "parrot",
    "peanut", "pebble", "pelican", "pepper", "piano", "pickle", "pigeon", "pillow", "pine",
    "pirate", "planet", "plum", "pony", "poppy", "pretzel", "puffin", "pumpkin", "quail", "quartz",
    "quill", "quokka", "rabbit", "radish", "raven", "reef", "ribbon", "river", "robin", "rocket",
    "ruby", "saddle", "saffron", "salmon", "sapphire", "sardine", "scarf", "shadow", "sherbet",
    "silver", "sketch", "sparrow", "spider", "spruce", "squash", "stork", "summit", "sunset",
    "swan", "tablet", "tango", "teapot", "thistle", "thunder", "tiger", "timber", "toast",
    "tomato", "topaz", "tornado", "trumpet", "tulip", "tundra", "turtle", "umbrella", "unicorn",
    "valley", "vanilla", "velvet", "violet", "violin", "volcano", "waffle", "walnut", "walrus",
    "wagon", "whale", "whistle", "willow", "window", "winter", "wizard", "wombat", "yak", "yarrow",
    "yogurt", "zebra", "zephyr", "zinnia", "zucchini",
];

/// The highest number a code starts with.
const MAX_NUMBER: u32 = 99;

/// A game's code: a number from 1 to 99 and two words of the list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Code {
    number: u32,
    words: [u8; 2],
}

impl Code {
    /// A new code, drawn from the system's secure random numbers.
    pub fn random() -> Code {
        let mut bytes = [0u8; 4];
        OsRng.fill_bytes(&mut bytes);
        Code {
            number: u32::from(bytes[0]) % MAX_NUMBER + 1,
            words: [bytes[1], bytes[2]],
        }
    }

    /// The code as the key exchange takes it: the same bytes on both sides however the friend
    /// typed it (see [`Code::from_str`]).
    pub fn password(&self) -> Vec<u8> {
        self.to_string().into_bytes()
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}-{}-{}",
            self.number,
            WORDS[usize::from(self.words[0])],
            WORDS[usize::from(self.words[1])]
        )
    }
}

impl FromStr for Code {
    type Err = String;

    /// `7-maple-anchor`, in any case, with spaces or hyphens between its parts.
    fn from_str(text: &str) -> Result<Code, String> {
        let parts: Vec<String> = text
            .split(|c: char| c == '-' || c.is_whitespace())
            .filter(|p| !p.is_empty())
            .map(str::to_ascii_lowercase)
            .collect();
        let shape = || format!("{text:?} is not a game code: it reads like 7-maple-anchor");
        let [number, first, second] = parts.as_slice() else {
            return Err(shape());
        };
        let number: u32 = number.parse().map_err(|_| shape())?;
        if !(1..=MAX_NUMBER).contains(&number) {
            return Err(shape());
        }
        let word = |w: &str| {
            WORDS
                .iter()
                .position(|&known| known == w)
                .and_then(|i| u8::try_from(i).ok())
                .ok_or_else(|| format!("{w:?} is not one of the code's words: check the spelling"))
        };
        Ok(Code {
            number,
            words: [word(first)?, word(second)?],
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(
        clippy::unwrap_used,
        reason = "a test's helpers fail loudly, where the failure is"
    )]

    use super::*;

    #[test]
    fn the_words_are_distinct_lowercase_and_none_is_a_prefix_of_another() {
        for (i, a) in WORDS.iter().enumerate() {
            assert!(a.chars().all(|c| c.is_ascii_lowercase()), "{a}");
            for b in &WORDS[i + 1..] {
                assert!(!a.starts_with(b) && !b.starts_with(a), "{a} / {b}");
            }
        }
    }

    #[test]
    fn a_code_reads_back_however_it_is_typed_and_nonsense_is_told() {
        for _ in 0..200 {
            let code = Code::random();
            let text = code.to_string();
            assert_eq!(text.parse::<Code>(), Ok(code));
            assert_eq!(
                text.to_uppercase().replace('-', " ").parse::<Code>(),
                Ok(code)
            );
        }
        assert_eq!(
            " 7 - Maple  anchor ".parse::<Code>().unwrap().to_string(),
            "7-maple-anchor"
        );
        for bad in [
            "",
            "7",
            "7-maple",
            "0-maple-anchor",
            "100-maple-anchor",
            "x-maple-anchor",
        ] {
            assert!(
                bad.parse::<Code>().unwrap_err().contains("not a game code"),
                "{bad}"
            );
        }
        assert!(
            "7-mapel-anchor"
                .parse::<Code>()
                .unwrap_err()
                .contains("\"mapel\" is not one of the code's words")
        );
    }
}
