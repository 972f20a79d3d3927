//! RDT: reliable transfer over UDP (packets, sender and receiver state machines). Sans-IO.
