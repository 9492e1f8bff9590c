//! Exact counts of any size: the number of optimal solutions of an open level passes
//! 2^128 quickly (a 70 x 70 room has C(138, 69), about 2.4e40), and a saturated or
//! rounded figure printed as a count would look exact while being wrong.

use std::fmt;

/// A non-negative integer of any size, in base-2^64 limbs, least significant first,
/// with no high zero limbs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Count {
    limbs: Vec<u64>,
}

impl From<u128> for Count {
    fn from(n: u128) -> Count {
        let mut c = Count {
            limbs: vec![n as u64, (n >> 64) as u64],
        };
        c.trim();
        c
    }
}

impl Count {
    fn trim(&mut self) {
        while self.limbs.last() == Some(&0) {
            self.limbs.pop();
        }
    }

    /// The value when it fits in a `u128`.
    pub fn to_u128(&self) -> Option<u128> {
        match self.limbs.as_slice() {
            [] => Some(0),
            [a] => Some(*a as u128),
            [a, b] => Some((*b as u128) << 64 | *a as u128),
            _ => None,
        }
    }

    /// Divides in place by a nonzero `d`, returning the remainder.
    fn div_rem_small(&mut self, d: u64) -> u64 {
        let mut rem = 0u128;
        for limb in self.limbs.iter_mut().rev() {
            let cur = rem << 64 | *limb as u128;
            *limb = (cur / d as u128) as u64;
            rem = cur % d as u128;
        }
        self.trim();
        rem as u64
    }
}

impl std::ops::AddAssign<&Count> for Count {
    fn add_assign(&mut self, other: &Count) {
        if self.limbs.len() < other.limbs.len() {
            self.limbs.resize(other.limbs.len(), 0);
        }
        let mut carry = false;
        for (i, a) in self.limbs.iter_mut().enumerate() {
            let b = other.limbs.get(i).copied().unwrap_or(0);
            if b == 0 && !carry {
                if i >= other.limbs.len() {
                    break;
                }
                continue;
            }
            let (s1, c1) = a.overflowing_add(b);
            let (s2, c2) = s1.overflowing_add(u64::from(carry));
            *a = s2;
            carry = c1 || c2;
        }
        if carry {
            self.limbs.push(1);
        }
    }
}

/// Decimal digits, exact.
impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(n) = self.to_u128() {
            return write!(f, "{n}");
        }
        const CHUNK: u64 = 10_000_000_000_000_000_000; // 10^19
        let mut n = self.clone();
        let mut chunks = vec![];
        while !n.limbs.is_empty() {
            chunks.push(n.div_rem_small(CHUNK));
        }
        let (top, rest) = chunks.split_last().expect("a nonzero count has digits");
        write!(f, "{top}")?;
        for c in rest.iter().rev() {
            write!(f, "{c:019}")?;
        }
        Ok(())
    }
}

/// A JSON number while it fits in a `u128`, else a string of its decimal digits (JSON
/// readers seldom hold larger integers exactly).
impl serde::Serialize for Count {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.to_u128() {
            Some(n) => s.serialize_u128(n),
            None => s.collect_str(self),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// C(n, k) by Pascal's rule, in `Count`s.
    fn binomial(n: usize, k: usize) -> Count {
        let mut row = vec![Count::from(1u128)];
        for _ in 0..n {
            let mut next = vec![Count::from(1u128)];
            for w in row.windows(2) {
                let mut s = w[0].clone();
                s += &w[1];
                next.push(s);
            }
            next.push(Count::from(1u128));
            row = next;
        }
        row[k].clone()
    }

    #[test]
    fn small_values_and_carries() {
        assert_eq!(Count::from(0u128).to_string(), "0");
        let mut c = Count::from(u64::MAX as u128);
        c += &Count::from(1u128);
        assert_eq!(c.to_u128(), Some(1u128 << 64));
        let mut m = Count::from(u128::MAX);
        m += &Count::from(1u128);
        assert_eq!(m.to_u128(), None);
        assert_eq!(m.to_string(), "340282366920938463463374607431768211456");
        m += &m.clone();
        assert_eq!(m.to_string(), "680564733841876926926749214863536422912");
    }

    #[test]
    fn binomials_past_u128() {
        // C(138, 69): the distinct shortest walks across a 70 x 70 room.
        assert_eq!(
            binomial(138, 69).to_string(),
            "23623985175715118288974865541854103729000"
        );
        assert_eq!(binomial(60, 30).to_u128(), Some(118264581564861424));
    }

    #[test]
    fn serializes_as_number_or_digits() {
        assert_eq!(
            serde_json::to_string(&Count::from(12u128)).expect("serializes"),
            "12"
        );
        let mut big = Count::from(u128::MAX);
        big += &Count::from(1u128);
        assert_eq!(
            serde_json::to_string(&big).expect("serializes"),
            "\"340282366920938463463374607431768211456\""
        );
    }
}
