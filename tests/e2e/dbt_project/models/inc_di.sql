{{ config(materialized='incremental', incremental_strategy='delete+insert', unique_key='grp') }}
select grp, count(*) as cnt from {{ ref('base_numbers') }} group by grp
