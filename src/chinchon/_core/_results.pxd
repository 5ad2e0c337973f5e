# The one place where the binding makes result objects (chinchon.results) of C structs:
# cards, melds, arrangements, hints, settlements, outlooks (_results.pyx).

from libc.stdint cimport uint8_t, uint16_t

from .chinchon cimport cc_arrangement, cc_hand, cc_prospect, cc_settlement


cdef tuple cards_of(cc_hand h)
cdef object outcome_name(int outcome)
cdef object arrangement_of(const cc_arrangement *a)
cdef list hints_of(cc_hand h, const uint16_t *points, const uint8_t *outcomes, object order)
cdef object settlement_of(const cc_settlement *s, object rules)
cdef list outlook_of(cc_hand h, const uint16_t *points, const uint8_t *outcomes,
                     const cc_prospect *prospects, object order)
cdef object draw_outlook_of(object top, const cc_prospect *take, const cc_prospect *stock)
