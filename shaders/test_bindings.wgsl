// Requires: bigint. Bindings of the per-operation test kernels: two inputs, one output.

@group(0) @binding(0) var<storage, read> ta: array<u32>;
@group(0) @binding(1) var<storage, read> tb: array<u32>;
@group(0) @binding(2) var<storage, read_write> tout: array<u32>;

/// Element i (LIMBS words) of buffer ta.
fn ta_big(i: u32, word: u32) -> Big {
    var r: Big;
    // @unroll k LIMBS
        r[k] = ta[word * i + k];
    // @end
    return r;
}

/// Element i of buffer tb.
fn tb_big(i: u32, word: u32) -> Big {
    var r: Big;
    // @unroll k LIMBS
        r[k] = tb[word * i + k];
    // @end
    return r;
}

/// Writes v at word offset o of the output.
fn tout_big(o: u32, v: Big) {
    // @unroll k LIMBS
        tout[o + k] = v[k];
    // @end
}
