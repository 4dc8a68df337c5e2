; Statements that link a module to others. The front-end reads each captured node once.
; Captures: @import (ESM import), @reexport (export … from), @require (a declarator bound to
; a CommonJS require), @source (the module specifier string), @member (`require('m').x`).

; import X from 'm' · import {a as b} from 'm' · import * as ns from 'm' · import 'm'
(import_statement
  source: (string) @source) @import

; export {a as b} from './m' · export * from './m' · export * as q from './q'
(export_statement
  source: (string) @source) @reexport

; const m = require('m') · const {a, b: c} = require('m')
(variable_declarator
  value: (call_expression
    function: (identifier) @require.function
    arguments: (arguments . (string) @source .))
  (#eq? @require.function "require")) @require

; const x = require('m').x
(variable_declarator
  value: (member_expression
    object: (call_expression
      function: (identifier) @require.function
      arguments: (arguments . (string) @source .))
    property: (property_identifier) @member)
  (#eq? @require.function "require")) @require

; const stripe = require('stripe')(key): an instance of the module's default export
(variable_declarator
  value: (call_expression
    function: (call_expression
      function: (identifier) @require.function
      arguments: (arguments . (string) @source .)))
  (#eq? @require.function "require")) @require.instance
