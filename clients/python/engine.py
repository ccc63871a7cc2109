#!/usr/bin/env python3
"""A minimal third-party 603.3 engine for triggerstack's conformance suite, written from its docs alone (see README.md)."""
import json, sys
from collections import Counter
from functools import lru_cache
from itertools import combinations as C, combinations_with_replacement as CR, product
ALL, ANY = {'player', 'permanent', 'card', 'spell', 'ability', 'emblem'}, {'creature', 'planeswalker', 'battle'}
def L(x): return [] if x is None else x if isinstance(x, list) else [x]
def low(x): return {'kindred' if str(v).lower() == 'tribal' else str(v).lower() for v in L(x)}
def num(x): return int(x) if isinstance(x, float) and x.is_integer() else x
def tk(d): return tuple(sorted((r, tuple(sorted(v))) for r, v in (d or {}).items() if v))
def dk(d): return tuple(sorted((r, tuple(sorted((t, num(x)) for t, x in v.items()))) for r, v in (d or {}).items() if v))
def ek(e):  # a stack entry as a value: modes a multiset, targets a set, an empty field the same as an omitted one
    ms = e.get('modes'); ms = None if ms is None else tuple(sorted((x['mode'], tk(x.get('targets')), dk(x.get('divide'))) for x in ms))
    return (e['ability'], ms, tk(e.get('targets')), dk(e.get('divide')))
def ej(k):
    tj = lambda t, d: {'targets': {r: list(v) for r, v in t}, 'divide': {r: dict(v) for r, v in d}}
    return dict(ability=k[0], **tj(k[2], k[3]), **({} if k[1] is None else {'modes': [dict(mode=m, **tj(t, d)) for m, t, d in k[1]]}))
def tids(e): return {x for _, v in e[2] for x in v} | {x for m in e[1] or () for _, v in m[1] for x in v}

class Scenario:
    def __init__(s, sc):
        if any(k in x for x in (sc.get('objects') or []) + (sc.get('triggers') or []) for k in ('card', 'card_ability')):
            raise ValueError('the [cards] extra (card, card_ability) is not supported')
        s.rules, ps = sc.get('rules') or 'seed', [p if isinstance(p, dict) else {'id': p} for p in sc['players']]
        s.E, s.left = {p['id']: dict(p, kind='player', ctl=p['id'], owner=p['id']) for p in ps}, {p['id'] for p in ps if p.get('left_game')}
        teams = (sc.get('teams') if s.rules == '2hg' else None) or [[p['id']] for p in ps]
        s.groups, s.team = [[q for q in t if q not in s.left] for t in teams], {q: i for i, t in enumerate(teams) for q in t}
        for o in sc.get('objects') or []:
            k = (o.get('kind') or 'permanent').lower()
            z = {'permanent': 'battlefield', 'spell': 'stack', 'ability': 'stack', 'emblem': 'command'}.get(k, (o.get('zone') or '').lower())
            own = o.get('owner') or o.get('controller')  # 108.4a: a card's controller is its owner (but a plane's)
            s.E[o['id']] = dict(o, kind=k, zone=z, owner=own, ctl=own if k == 'card' and z != 'command' else o.get('controller') or own)
        s.must, s.reactions, s.A, s.seen, s.outs = sc.get('must_target') or [], sc.get('reactions') or [], {}, set(), set()
        W, s.choices = [s.add(t) for t in sc.get('triggers') or []], lru_cache(None)(s.choices)  # per scenario
        s.go((), frozenset(i for i in W if s.gone(i)), s.blocks(W), 0, 1)

    def add(s, t, i=None):  # a waiting ability, 603.3a: its controller
        i = i or t['id']; src = s.E.get(t.get('source'))
        ctl = t.get('controller') or (t.get('delayed') or {}).get('controller') or t.get('source_controller') or src['ctl']
        s.A[i] = dict(t, id=i, ctl=ctl, src=src, part=2 if t.get('condition') == 'ability-triggered' else 1)
        s.E[i] = {'id': i, 'kind': 'ability', 'zone': 'stack', 'ctl': ctl, 'owner': ctl, 'ability_kind': 'triggered'}; return i
    def gone(s, i): return s.A[i]['ctl'] in s.left or bool(s.A[i].get('illegal'))  # 800.4d, 603.3d
    def blocks(s, W):  # 603.3b: part 1 then part 2, each in APNAP order (cr-1p: one pass; 2hg: teams)
        return tuple(b for pt in ([(1, 2)] if s.rules == 'cr-1p' else [(1,), (2,)]) for g in s.groups
                     for b in [frozenset(i for i in W if s.A[i]['part'] in pt and s.A[i]['ctl'] in g and not s.gone(i))] if b)
    def opp(s, a, b): return a is not None and b is not None and a != b and s.team.get(a, a) != s.team.get(b, b)
    def by(s, w, actl, octl): return {'you': actl == octl, 'any': True}.get(w, s.opp(actl, octl))

    def go(s, stack, rem, todo, ps, n):  # every placement sequence; outcomes deduplicated as values
        if (stack, rem, todo, ps) in s.seen: return
        s.seen.add((stack, rem, todo, ps))
        if not todo:  # the pass is over: what it fired waits for the next one
            W = [s.add(r['trigger'], r['id'] + '@' + e[0]) for e in stack[ps:] for r in s.reactions
                 if r['object'] in tids(e) and s.by(r.get('by') or 'opponent', s.A[e[0]]['ctl'], s.E[r['object']]['ctl'])]
            if not W or n >= 100: return s.outs.add((stack, tuple(sorted(rem))))
            return s.go(stack, rem | {i for i in W if s.gone(i)}, s.blocks(W), len(stack), n + 1)
        for i in todo[0]:
            nt = ((todo[0] - {i},) if len(todo[0]) > 1 else ()) + todo[1:]
            ch, may_remove = s.choices(i, frozenset(e[0] for e in stack))
            if may_remove: s.go(stack, rem | {i}, nt, ps, n)
            for e in ch: s.go(stack + (e,), rem, nt, ps, n)

    def choices(s, i, on):  # the legal entries for ability i put on a stack holding the abilities `on`
        a = s.A[i]; U = [e for x, e in s.E.items() if x not in s.A or x in on]; md = a.get('modal')
        if not md: ch = [(i, None, T, D) for T, D in s.opts(a, a.get('targets'), U)]
        else:
            O, ch = {m['id']: s.opts(a, m.get('targets'), U) for m in a.get('modes') or [] if m.get('available') is not False}, set()
            for k in (int(k) for k in md['choose'] if k > 0):
                for sel in (CR if md.get('repeat') else C)(list(O), k):
                    for inst in product(*(O[m] for m in sel)):
                        t = [x for T, _ in inst for _, c in T for x in c]
                        if not md.get('distinct_targets') or len(t) == len(set(t)):
                            ch.add((i, tuple(sorted((m,) + x for m, x in zip(sel, inst))), (), ()))
        mt = [m['object'] for m in s.must if s.applies(m['applies_to'], a)]
        if mt:  # 601.2c: only the choices obeying the most "must target" effects, among the same modes
            sc, grp, best = (lambda e: sum(o in tids(e) for o in mt)), (lambda e: e[1] and tuple(m[0] for m in e[1])), {}
            for e in ch: best[grp(e)] = max(best.get(grp(e), 0), sc(e))
            ch = [e for e in ch if sc(e) == best[grp(e)]]
        return list(ch), not ch or bool(md) and 0 in [num(k) for k in md['choose']]  # (entries, may it be removed?)

    def opts(s, a, reqs, U):  # every (targets, divisions) for one mode's requirements
        per, out = [], []
        for r in reqs or []:  # a filter naming target_of is judged once every requirement has its targets
            ids = sorted(e['id'] for e in U if s.ok(a, e) and not (r.get('other_than_source') and e['id'] == a.get('source'))
                         and ('target_of' in json.dumps(r['filter']) or s.M(e, r['filter'], a, {})))
            lo, hi = int(r.get('min', 1)), len(ids) if r.get('max', 1) is None else min(int(r.get('max', 1)), len(ids))
            per.append([(r, c) for k in range(lo, hi + 1) for c in C(ids, k)])
        for combo in product(*per):
            ch = {r['id']: c for r, c in combo}
            if all(all(s.M(s.E[x], r['filter'], a, ch) for x in c)
                   and not set(c) & {y for d in L(r.get('different_from')) for y in ch.get(d, ())} for r, c in combo):
                dv = [[None] if r.get('divide') is None else [(r['id'], tuple(zip(c, p))) for p in  # 601.2d: at least 1 each
                      product(range(1, int(r['divide']) + 1), repeat=len(c)) if sum(p) == int(r['divide'])] for r, c in combo]
                T = tuple(sorted((r['id'], c) for r, c in combo if c))
                out += [(T, tuple(sorted(d for d in ds if d))) for ds in product(*dv)]
        return out

    def Q(s, a, f): return f == {} if a['src'] is None else s.M(a['src'], f, a, {}, ALL)  # a quality of the source
    def applies(s, at, a): return a['id'] in L(at) if isinstance(at, list) or isinstance(at, str) and at != 'any-target' else s.Q(a, at)
    def ok(s, a, e):  # 115, 702, 800.4a: may ability a target e at all?
        op, Q = s.opp(a['ctl'], e['ctl']), (lambda f: s.Q(a, f))
        if e.get('owner') in s.left or e['kind'] in ('player', 'permanent') and (e.get('shroud') or op and e.get('hexproof')
                or any(map(Q, L(e.get('protection')))) or op and any(map(Q, L(e.get('hexproof_from'))))): return False  # 113.6, 800.4a
        return not any(s.by(r.get('controller') or 'any', a['ctl'], e['ctl']) and Q(r.get('source') or {})
                       for r in L(e.get('cant_be_targeted_by')))  # 601.2c: "can't be the target of", in any zone
    def rel(s, v, who, a, ch, key):
        if isinstance(v, dict): return who in {s.E[x][key] for x in ch.get(v['target_of'], ()) if x in s.E}
        return {'you': who == a['ctl'], 'opponent': s.opp(a['ctl'], who), 'any': who is not None,
                'event': who == a.get('event_player')}.get(v, who == v)
    def M(s, e, f, a, ch, d=None):  # does e fit filter f (formats.md, "Domains")?
        if f == 'any-target': return e['kind'] == 'player' or e['kind'] == 'permanent' and bool(low(e.get('types')) & ANY)
        f = {k: v for k, v in f.items() if v is not None}
        d = low(f['kind']) if 'kind' in f else d or (ALL if 'zone' in f else None if f and set(f) <= {'any', 'all'} else {'permanent'})
        if d is not None and e['kind'] not in d: return False
        g, pl = (lambda k: low(e.get(k))), e['kind'] == 'player'
        cmp = lambda v, k: e.get(k) is not None and all({'lte': e[k] <= n, 'gte': e[k] >= n, 'eq': e[k] == n}[o] for o, n in v.items() if n is not None)
        T = {'zone': lambda v: e.get('zone') in low(v), 'type': lambda v: g('types') & low(v), 'subtype': lambda v: g('subtypes') & low(v),
             'supertype': lambda v: g('supertypes') & low(v), 'color': lambda v: not pl and g('colors') & low(v), 'id': lambda v: e['id'] in L(v),
             'colorless': lambda v: not pl and (not g('colors')) == v, 'tag': lambda v: low(v) <= g('tags'), 'not': lambda v: not s.M(e, v, a, ch, d),
             'controller': lambda v: s.rel(v, e['ctl'], a, ch, 'ctl'), 'owner': lambda v: s.rel(v, e['owner'], a, ch, 'owner'),
             'counter': lambda v: (e.get('counters') or {}).get(v, 0) > 0, 'ability_kind': lambda v: e.get('ability_kind') == v,
             'any': lambda v: any(s.M(e, x, a, ch, d) for x in v), 'all': lambda v: all(s.M(e, x, a, ch, d) for x in v),
             **{k: (lambda v, k=k: cmp(v, k)) for k in ('power', 'toughness', 'mana_value')}}
        return all(T[k](v) for k, v in f.items() if k in T)

    def count(s):
        by = Counter(st[0] if st else None for st, _ in s.outs)
        return {'count': len(s.outs), 'divide': [{'first': k and ej(k), 'count': n} for k, n in by.items()]}
    def check(s, p):
        st = p.get('stack') or []; at = [e['ability'].count('@') for e in st]  # an omitted `passes` is what the ids imply
        key = (tuple(map(ek, st)), tuple(sorted(p.get('removed') or [])))
        return {'legal': key in s.outs and p.get('passes') in (None, [at.count(n) for n in range(max(at, default=-1) + 1)]), 'violations': []}

def main():
    sys.setrecursionlimit(100000); S, handles = {}, iter(range(1, 1 << 62))
    def load(p): h = str(next(handles)); S[h] = Scenario(p['scenario']); return {'handle': h}
    F = {'load': load, 'count': lambda p: S[p['handle']].count(), 'check': lambda p: S[p['handle']].check(p['proposal']),
         'unload': lambda p: (S.pop(p.get('handle'), None), {'unloaded': True})[1]}
    for line in sys.stdin:  # one request a line, one answer a line; logs (none) would go to stderr
        rid = None
        try:
            req = json.loads(line); rid, m = req.get('id'), req.get('method')
            out = {'result': F[m](req.get('params') or {})} if m in F else {'error': {'code': -32601, 'message': f'no method {m!r}'}}
        except Exception as ex: out = {'error': {'code': -32700 if isinstance(ex, json.JSONDecodeError) else -32602, 'message': repr(ex)}}
        print(json.dumps({'jsonrpc': '2.0', 'id': rid, **out}), flush=True)

if __name__ == '__main__': main()
