{{ config(materialized='table') }}
select number as n, number % 3 as grp from numbers(10)
