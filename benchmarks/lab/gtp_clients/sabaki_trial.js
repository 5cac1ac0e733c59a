#!/usr/bin/env node
// Drive our GTP engine through Sabaki's GTP library (@sabaki/gtp, the code Sabaki itself
// uses to talk to engines): every safe command of list_commands with sensible arguments,
// a check that each response parses and is not an error, plus content checks; then the
// analysis commands (lz-analyze, kata-analyze) with Sabaki's subscriber mechanism.
//
//   NODE_PATH=/tmp/gtp_clients/node/node_modules node sabaki_trial.js [ENGINE ARGS...]
//
// Default engine: python3 gtp_tee.py $GTP_LOG -- python3 REPO/cli.py gtp --threads 1
// --seconds 0.5 (the tee logs the traffic). Exit code: 0 when the core part passed (the
// analysis part is reported but does not fail the run unless STRICT_ANALYSIS=1).
'use strict'

const path = require('path')
const {Controller} = require(process.env.SABAKI_GTP_MODULE || '@sabaki/gtp')

const HERE = __dirname
const REPO = path.resolve(HERE, '..', '..', '..')
const PY = process.env.PYTHON || 'python3'
const LOG = process.env.GTP_LOG || '/tmp/gtp_clients/sabaki_gtp.log'
const TIMEOUT_MS = +(process.env.COMMAND_TIMEOUT_MS || 30000)

let [enginePath, ...engineArgs] = process.argv.slice(2)
if (!enginePath) {
  enginePath = PY
  engineArgs = [path.join(HERE, 'gtp_tee.py'), LOG, '--', PY, path.join(REPO, 'cli.py'),
                'gtp', '--threads', '1', '--seconds', '0.5']
}

const VERTEX = /^([A-HJ-T](1[0-9]|[1-9])|pass|resign)$/i
const VERTICES = /^(\s*[A-HJ-T](1[0-9]|[1-9]))*\s*$/i
const results = []   // {cmd, ok, note}
const stderrLines = []

function withTimeout(promise, ms, what) {
  let timer
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timeout after ${ms} ms: ${what}`)), ms)
    })
  ]).finally(() => clearTimeout(timer))
}

function commandString(name, args) {
  return [name, ...args].join(' ')
}

async function main() {
  const engine = new Controller(enginePath, engineArgs, {cwd: REPO})
  engine.on('stderr', ({content}) => stderrLines.push(content))
  engine.start()
  let engineGone = null
  engine.process.on('exit', (code, signal) => { engineGone = `engine exited (${code}, ${signal})` })
  engine.process.stdin.on('error', err => { engineGone = `engine stdin: ${err.message}` })

  // send one command; check = response, then the optional content check
  async function check(name, args = [], test = null, opts = {}) {
    const text = commandString(name, args)
    let response
    const t0 = Date.now()
    try {
      response = await withTimeout(engine.sendCommand({name, args, id: opts.id}),
                                   TIMEOUT_MS, text)
    } catch (err) {
      results.push({cmd: text, ok: false, note: String(err.message || err)})
      return null
    }
    const ms = Date.now() - t0
    const expectError = !!opts.expectError
    let ok = response.error === expectError
    let note = ok ? '' : (response.error ? `error reply: ? ${response.content}`
                                         : `expected an error, got: = ${response.content}`)
    if (ok && test) {
      const problem = test(response.content, response)
      if (problem) { ok = false; note = problem }
    }
    const shown = response.content.split('\n')
    const summary = shown.length > 1 ? `${shown[0]} ... (${shown.length} lines)` : shown[0]
    results.push({cmd: text, ok, note, reply: `${response.error ? '?' : '='}` +
                  `${response.id != null ? response.id : ''} ${summary}`.trimEnd(), ms})
    return response
  }

  const is = expected => c => (c === expected ? null : `expected "${expected}", got "${c}"`)
  const matches = (re, what) => c => (re.test(c) ? null : `not ${what}: "${c}"`)

  // ---- identity and listing
  await check('protocol_version', [], is('2'))
  await check('name', [], c => (c ? null : 'empty name'))
  await check('version', [])
  const lc = await check('list_commands', [], c => (c.split('\n').length > 5 ? null
                                                     : 'fewer than 6 commands'))
  const listed = new Set(lc ? lc.content.split('\n').map(s => s.trim()).filter(Boolean) : [])
  await check('known_command', ['genmove'], is('true'))
  await check('known_command', ['no_such_command'], is('false'))
  await check('no_such_command', [], null, {expectError: true})
  await check('name', [], null, {id: 42}).then(r => {
    if (r && r.id !== 42) results.push({cmd: '42 name', ok: false,
                                        note: `response id ${r.id}, expected 42`})
  })

  // ---- a short game
  await check('boardsize', ['9'])
  await check('clear_board', [])
  await check('komi', ['7.5'])
  if (listed.has('get_komi')) await check('get_komi', [], c => (+c === 7.5 ? null : `komi ${c}`))
  await check('play', ['b', 'E5'])
  await check('play', ['w', 'C3'])
  await check('play', ['b', 'E5'], null, {expectError: true})  // occupied point
  await check('genmove', ['b'], matches(VERTEX, 'a vertex'))
  await check('genmove', ['w'], matches(VERTEX, 'a vertex'))
  await check('showboard', [], c => (c.split('\n').length >= 9 ? null : 'fewer than 9 lines'))
  await check('list_stones', ['black'], matches(VERTICES, 'a vertex list'))
  await check('list_stones', ['white'], matches(VERTICES, 'a vertex list'))
  await check('is_legal', ['b', 'E5'], is('0'))
  await check('is_legal', ['b', 'A1'], is('1'))
  await check('all_legal', ['b'], matches(VERTICES, 'a vertex list'))
  await check('undo', [])
  await check('list_stones', ['black'], c => (c.split(/\s+/).filter(Boolean).length === 2 ? null
                                               : `after undo black has: "${c}"`))
  await check('genmove', ['w'], matches(VERTEX, 'a vertex'))
  await check('final_score', [], matches(/^([BW]\+(\d+(\.\d+)?|R|T)|0)$/i, 'a score'))
  await check('final_status_list', ['dead'], matches(VERTICES, 'a vertex list'))
  if (listed.has('final_status_list')) {
    await check('final_status_list', ['alive'], matches(VERTICES, 'a vertex list'))
  }

  // ---- time
  await check('time_settings', ['60', '0', '0'])
  await check('time_left', ['b', '60', '0'])
  await check('kgs-time_settings', ['byoyomi', '30', '5', '3'])
  await check('kgs-time_settings', ['canadian', '30', '60', '10'])
  await check('kgs-time_settings', ['none'])
  await check('cputime', [], matches(/^\d+(\.\d+)?$/, 'a number'))
  await check('printsgf', [], c => (c.startsWith('(;') ? null : `not SGF: "${c.slice(0, 40)}"`))
  await check('genmove', ['b'], matches(VERTEX, 'a vertex'))

  // ---- the other listed commands, where listed
  const sgfFile = path.join(path.dirname(LOG), 'sabaki_trial.sgf')
  const extras = [
    ['reg_genmove', ['b'], matches(VERTEX, 'a vertex')],
    ['gg-undo', ['1']],
    ['kgs-rules', ['chinese']],
    ['kgs-genmove_cleanup', ['b'], matches(VERTEX, 'a vertex')],
    ['printsgf', [sgfFile]],
    ['loadsgf', [sgfFile]],
    ['list_stones', ['black'], matches(VERTICES, 'a vertex list')],
    ['clear_board', []],
    ['fixed_handicap', ['2'], c => (c.split(/\s+/).length === 2 ? null : `stones: "${c}"`)],
    ['clear_board', []],
    ['place_free_handicap', ['3'], c => (c.split(/\s+/).length === 3 ? null : `stones: "${c}"`)],
    ['clear_board', []],
    ['set_free_handicap', ['C3', 'G7']],
    ['genmove', ['w'], matches(VERTEX, 'a vertex')],
    ['kgs-game_over', []],
  ]
  for (const [name, args, test] of extras) {
    if (name === 'list_stones' || name === 'genmove' || listed.has(name)) {
      await check(name, args, test || null)
    }
  }

  // ---- GoGui's analyze commands, as the engine lists them ("type/label/command")
  if (listed.has('gogui-analyze_commands')) {
    const r = await check('gogui-analyze_commands', [], c => (
      c.split('\n').every(l => /^[a-z]+\/[^/]+\/\S/.test(l)) ? null : 'not type/label/command lines'))
    for (const entry of r && !r.error ? r.content.split('\n') : []) {
      const [type, , command] = entry.split('/')
      if (!command || /%[^pc]/.test(command)) continue   // needs a point or a string
      const [name, ...args] = command.replace(/%[pc]/g, 'b').split(/\s+/)
      const shape = {
        gfx: c => (c.split('\n').every(l => /^(LABEL|TEXT|VAR|SQUARE|CIRCLE|TRIANGLE|MARK|INFLUENCE|BLACK|WHITE|COLOR|CLEAR)\b/.test(l))
                   ? null : 'not gfx lines'),
        dboard: c => (c.split(/\s+/).filter(Boolean).length === 81 ? null : 'not 81 numbers'),
        plist: matches(VERTICES, 'a vertex list'),
      }[type]
      await check(name, args, shape || null)
    }
  }
  if (listed.has('stop')) await check('stop', [])   // nothing to stop: should still succeed

  // ---- analysis (may be unimplemented): Leela Zero's lz-analyze and KataGo's
  // kata-analyze stream "info ..." lines until the next command arrives (that is how
  // Sabaki stops them); lz-/kata-genmove_analyze stream, then end with "play VERTEX".
  const analysis = []
  const kata = name => name.startsWith('kata')
  // problems in one info line: each "info move ..." segment needs move, visits, winrate,
  // pv; LZ winrates are integers 0..10000, KataGo's floats 0..1; ownership 81 numbers
  function infoProblems(name, line, wantOwnership) {
    const problems = []
    let text = line, ownership = null
    const o = line.indexOf(' ownership ')
    if (o >= 0) { ownership = line.slice(o + 11).trim().split(/\s+/); text = line.slice(0, o) }
    const segments = text.split(/(?=\binfo )/).map(s => s.trim()).filter(Boolean)
    for (const seg of segments) {
      const w = seg.split(/\s+/)
      const get = key => { const i = w.indexOf(key); return i >= 0 ? w[i + 1] : undefined }
      if (w[0] !== 'info' || !VERTEX.test(get('move') || '')) problems.push(`bad move in "${seg.slice(0, 60)}"`)
      if (!/^\d+$/.test(get('visits') || '')) problems.push(`bad visits in "${seg.slice(0, 60)}"`)
      const wr = get('winrate')
      const wrOk = kata(name) ? (+wr >= 0 && +wr <= 1) : /^\d+$/.test(wr || '') && +wr <= 10000
      if (!wrOk) problems.push(`bad winrate ${wr} for ${name}`)
      if (w.indexOf('pv') < 0) problems.push(`no pv in "${seg.slice(0, 60)}"`)
    }
    if (wantOwnership) {
      if (!ownership) problems.push('no ownership')
      else if (ownership.length !== 81 || ownership.some(x => !(Math.abs(+x) <= 1)))
        problems.push(`ownership has ${ownership.length} values (want 81 in -1..1)`)
    }
    return {segments: segments.length, problems}
  }

  for (const [name, args, streams] of [
      ['lz-analyze', ['b', '10'], true],
      ['kata-analyze', ['b', '10', 'ownership', 'true'], true],
      ['lz-genmove_analyze', ['b', '10'], false],
      ['kata-genmove_analyze', ['w', '10', 'ownership', 'true'], false]]) {
    const text = commandString(name, args)
    const wantOwnership = args.includes('ownership')
    let infoLines = 0, segments = 0, otherLines = [], firstInfo = null, playLine = null
    const problems = new Set()
    const t0 = Date.now()
    const pending = engine.sendCommand({name, args}, ({line}) => {
      if (/^info /.test(line)) {
        infoLines++
        if (!firstInfo) firstInfo = line
        const r = infoProblems(name, line, wantOwnership)
        segments += r.segments
        r.problems.forEach(p => problems.add(p))
      } else if (/^play /.test(line)) playLine = line
      else if (line !== '' && !/^[=?]/.test(line)) otherLines.push(line)
    })
    let early = null   // the response, if it ended before we stopped it (e.g. an error)
    pending.then(r => { early = r }, () => {})
    let stop = null, response = null, err = null
    if (streams) {
      await new Promise(resolve => setTimeout(resolve, 1000))
    }
    const endedEarly = streams && early !== null
    try {
      if (streams) {   // Sabaki stops an analysis by sending the next command
        stop = await withTimeout(engine.sendCommand({name: 'name'}), 15000, 'name after ' + name)
      }
      response = await withTimeout(pending, 15000, name)
    } catch (e) { err = e }
    if (!streams && response && !response.error && !(playLine && VERTEX.test(playLine.slice(5))))
      problems.add(`no "play VERTEX" line at the end (got ${JSON.stringify(playLine)})`)
    if (otherLines.length) problems.add(`other lines: ${JSON.stringify(otherLines.slice(0, 2))}`)
    analysis.push({
      cmd: text, streams, endedEarly, infoLines, segments, firstInfo, playLine,
      problems: [...problems],
      error: response ? response.error : null,
      reply: response ? ((response.error ? '? ' : '= ') + response.content.split('\n')[0]).slice(0, 60)
                      : null,
      stopReply: stop ? `${stop.error ? '?' : '='} ${stop.content}` : null,
      problem: err ? String(err.message || err) : null,
      ms: Date.now() - t0
    })
    if (err) break   // the engine is stuck; no point in going on
  }

  // the engine is still in sync after analysis
  await check('list_stones', ['black'], matches(VERTICES, 'a vertex list'))
  await check('genmove', ['w'], matches(VERTEX, 'a vertex'))

  try { await withTimeout(engine.stop(3000), 6000, 'stop') } catch (e) { await engine.kill() }

  // ---- report
  let failures = 0
  console.log(`engine: ${enginePath} ${engineArgs.join(' ')}`)
  console.log(`GTP log: ${LOG}`)
  for (const r of results) {
    if (!r.ok) failures++
    console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.cmd.padEnd(36)} ${r.reply || ''}` +
                `${r.ms != null ? `  [${r.ms} ms]` : ''}${r.note ? `  <-- ${r.note}` : ''}`)
  }
  const sent = new Set(results.map(r => r.cmd.split(' ')[0]).concat(analysis.map(a => a.cmd.split(' ')[0])))
  const unsafe = new Set(['quit'])  // ends the session
  const notSent = [...listed].filter(c => !sent.has(c) && !unsafe.has(c))
  if (notSent.length) console.log(`listed but not sent by this trial: ${notSent.join(', ')}`)
  let analysisOk = true
  for (const a of analysis) {
    const works = !a.error && !a.problem && !a.endedEarly && a.infoLines > 0 &&
                  a.problems.length === 0
    if (!works) analysisOk = false
    console.log(`${works ? 'ok  ' : 'FAIL'} ${a.cmd.padEnd(36)} ` +
                `info lines: ${a.infoLines} (${a.segments} moves)` +
                `${a.streams ? ' in ~1 s' : `, ${a.playLine === null ? 'no play line' : JSON.stringify(a.playLine)}`}` +
                `; reply: ${a.reply === null ? '(none)' : JSON.stringify(a.reply)}` +
                `${a.endedEarly ? ' (ended before the stop command)' : ''}` +
                `${a.streams ? `; stop command reply: ${JSON.stringify(a.stopReply)}` : ''}` +
                `; ${a.ms} ms` +
                `${a.problems.length ? `; problems: ${a.problems.join('; ')}` : ''}` +
                `${a.problem ? `; problem: ${a.problem}` : ''}`)
    if (a.firstInfo) console.log(`       first info line: ${a.firstInfo.slice(0, 150)}`)
  }
  if (engineGone && failures) console.log(engineGone)
  const odd = stderrLines.filter(l => /Traceback|Error|error/.test(l))
  if (odd.length) console.log(`engine stderr with errors:\n  ${odd.join('\n  ')}`)
  console.log(`core: ${results.length - failures} passed, ${failures} failed; ` +
              `analysis: ${analysisOk ? 'works' : 'not working'}`)
  const strict = process.env.STRICT_ANALYSIS === '1'
  process.exit(failures || (strict && !analysisOk) ? 1 : 0)
}

main().catch(err => { console.error(err); process.exit(2) })
