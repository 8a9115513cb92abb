//! The circuit the Groth16 example and its test prove: a chain of squarings with round
//! constants, `x_{i+1} = x_i^2 + c_i`, from the public input `x_0` to the public output
//! `y = x_n`. Each step is one R1CS constraint, `x_i * x_i = x_{i+1} - c_i`, over a fresh
//! witness variable, so the proof's MSMs run over full-width scalars.

use ark_ff::PrimeField;
use ark_relations::gr1cs::{
    ConstraintSynthesizer, ConstraintSystemRef, LinearCombination, Result, Variable,
};
use ark_std::rand::Rng;

/// Instance variables of the circuit: the constant one, `x_0` and `y`.
const INSTANCE_VARIABLES: usize = 3;

/// `x_{i+1} = x_i^2 + c_i` for every round constant `c_i`, with `x_0` and the result
/// public.
#[derive(Clone)]
pub struct SquaringChain<F> {
    /// The public input `x_0`.
    pub x0: F,
    /// One round constant per step (per constraint).
    pub constants: Vec<F>,
}

impl<F: PrimeField> SquaringChain<F> {
    /// A chain whose QAP domain has exactly `2^log_domain` points: ark-groth16's domain
    /// holds the constraints and the instance variables, so the chain has
    /// `2^log_domain - 3` steps. `x_0` and the constants are drawn from `rng`.
    ///
    /// # Panics
    /// When `log_domain < 2` (no room for a step).
    pub fn with_log_domain(log_domain: u32, rng: &mut impl Rng) -> Self {
        assert!(
            log_domain >= 2,
            "a chain needs a domain of at least 4 points"
        );
        let steps = (1usize << log_domain) - INSTANCE_VARIABLES;
        SquaringChain {
            x0: F::rand(rng),
            constants: (0..steps).map(|_| F::rand(rng)).collect(),
        }
    }

    /// Number of R1CS constraints (one per step).
    pub fn num_constraints(&self) -> usize {
        self.constants.len()
    }

    /// The chain's value after every step, `x_1 ..= x_n`.
    fn values(&self) -> Vec<F> {
        let mut x = self.x0;
        self.constants
            .iter()
            .map(|c| {
                x = x.square() + c;
                x
            })
            .collect()
    }

    /// The public inputs, in the order the verifier takes them: `[x_0, y]`.
    pub fn public_inputs(&self) -> Vec<F> {
        let y = self.values().last().copied().unwrap_or(self.x0);
        vec![self.x0, y]
    }
}

impl<F: PrimeField> ConstraintSynthesizer<F> for SquaringChain<F> {
    fn generate_constraints(self, cs: ConstraintSystemRef<F>) -> Result<()> {
        let values = self.values();
        let y = values.last().copied().unwrap_or(self.x0);
        let mut x = cs.new_input_variable(|| Ok(self.x0))?;
        let y_var = cs.new_input_variable(|| Ok(y))?;
        let last = values.len().saturating_sub(1);
        for (i, (c, v)) in self.constants.iter().zip(values).enumerate() {
            // The last step writes the public output instead of a fresh witness.
            let next = if i == last {
                y_var
            } else {
                cs.new_witness_variable(|| Ok(v))?
            };
            cs.enforce_r1cs_constraint(
                || LinearCombination::from(x),
                || LinearCombination::from(x),
                || LinearCombination::from(next) - (*c, Variable::One),
            )?;
            x = next;
        }
        Ok(())
    }
}
