{{ config(materialized='view') }}
select grp, count(*) as cnt from {{ ref('base_numbers') }} group by grp
